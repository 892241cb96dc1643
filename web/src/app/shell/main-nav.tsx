import { NavLink } from 'react-router';
import { paths } from '../../lib/paths';

const ITEMS = [
  { to: paths.dashboard, label: 'Dashboard', end: true },
  { to: paths.backups, label: 'Backups' },
  { to: paths.operations, label: 'Operations' },
  { to: paths.schedules, label: 'Schedules' },
  { to: paths.health, label: 'Health' },
  { to: paths.trees, label: 'Trees' },
  { to: paths.schema, label: 'Schema' },
  { to: paths.maintenance, label: 'Maintenance' },
] as const;

/** The sections of the console; NavLink marks the current one with aria-current="page". */
export function MainNav() {
  return (
    <nav className="shell__nav" aria-label="Main">
      <ul>
        {ITEMS.map((item) => (
          <li key={item.to}>
            <NavLink to={item.to} end={'end' in item && item.end} className="nav-link">
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
