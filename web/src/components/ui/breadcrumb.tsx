import { Link } from 'react-router';

/**
 * Where a page sits: its section, linked, then the page's own name ("Backups / customers full
 * baseline"); the last crumb is the current page. A long name is cut with an ellipsis, in full
 * on hover.
 */
export function Breadcrumb({
  section,
  to,
  current,
}: {
  section: string;
  to: string;
  current: string;
}) {
  return (
    <nav className="breadcrumb" aria-label="Breadcrumb">
      <ol>
        <li>
          <Link to={to}>{section}</Link>
        </li>
        <li aria-current="page" className="breadcrumb__current" title={current}>
          {current}
        </li>
      </ol>
    </nav>
  );
}
