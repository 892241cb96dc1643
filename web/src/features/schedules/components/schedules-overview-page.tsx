import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { useListSchedulesQuery } from '../api/use-list-schedules-query';
import { ScheduleOverviewTable } from './schedule-overview-table';
import { useZoneChoice, ZoneSwitch } from './zone-switch';

/** /schedules/overview — every schedule of the tenant: cadence, next runs, last run, chain. */
export function SchedulesOverviewPage() {
  const tenant = useActiveTenant();
  const schedules = useListSchedulesQuery();
  const [zone, setZone] = useZoneChoice();
  return (
    <>
      <PageHeader
        title="Schedule overview"
        description={
          <>
            Every scheduled scope in tenant <strong>{tenant}</strong>: when it runs next, how its
            last run went and how long its backup chain is.
          </>
        }
        actions={
          <Link className="btn btn--secondary" to={paths.schedules}>
            Edit a scope&apos;s schedules
          </Link>
        }
      />
      {schedules.isPending ? (
        <Spinner label="Loading the schedules…" />
      ) : schedules.isError ? (
        <ErrorBanner
          title="Could not load the schedules"
          error={schedules.error}
          onRetry={() => void schedules.refetch()}
        />
      ) : schedules.data.schedules.length === 0 ? (
        <EmptyState title="No schedules yet">
          Register a full or incremental schedule of a tree on the{' '}
          <Link to={paths.schedules}>Schedules</Link> page; it appears here with its next runs.
        </EmptyState>
      ) : (
        <section className="panel" aria-label="All schedules">
          <ZoneSwitch value={zone} onChange={setZone} />
          <ScheduleOverviewTable
            schedules={schedules.data.schedules}
            now={Date.now()}
            zoneChoice={zone}
          />
          {schedules.data.truncated && (
            <p className="muted">Showing the first 1000 scopes, by tree and key prefix.</p>
          )}
        </section>
      )}
    </>
  );
}
