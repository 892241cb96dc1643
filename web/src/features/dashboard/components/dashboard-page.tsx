import { Link } from 'react-router';
import { PlaceholderPage } from '../../../components/ui/placeholder-page';
import { paths } from '../../../lib/paths';

/** / — the overview. To be filled in: see the text below. */
export function DashboardPage() {
  return (
    <PlaceholderPage title="Dashboard">
      <p>
        An overview of the active tenant: trees and their last successful backups, running
        operations, backups whose last health check failed, and schedules that missed a run.
      </p>
      <p>
        Until then, see <Link to={paths.operations}>Operations</Link>.
      </p>
    </PlaceholderPage>
  );
}
