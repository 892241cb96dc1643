import { NavLink } from 'react-router';
import { useRoles } from '../../lib/identity/use-roles';
import { paths } from '../../lib/paths';

const ITEMS = [
  { to: paths.dashboard, label: 'Dashboard', end: true },
  { to: paths.backups, label: 'Backups' },
  { to: paths.operations, label: 'Operations' },
  // end: the overview below is its own section, not part of a scope's schedules.
  { to: paths.schedules, label: 'Schedules', end: true },
  { to: paths.schedulesOverview, label: 'Schedule overview' },
  { to: paths.health, label: 'Health' },
  { to: paths.trees, label: 'Trees' },
  { to: paths.schema, label: 'Schema' },
  { to: paths.maintenance, label: 'Maintenance' },
  { to: paths.notifications, label: 'Notifications' },
  { to: paths.audit, label: 'Audit', adminOnly: true },
] as const;

/**
 * The sections of the console; NavLink marks the current one with aria-current="page". Audit is
 * listed for admins of the active tenant only (the server refuses everyone else anyway).
 */
export function MainNav({ id }: { id?: string }) {
  const isAdmin = useRoles().atLeast('admin');
  const items = ITEMS.filter((item) => !('adminOnly' in item) || isAdmin);
  return (
    <nav className="shell__nav" id={id} aria-label="Main">
      <ul>
        {items.map((item) => (
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
