import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { useNow } from '../../../lib/use-now';
import { useFleetBackupsQuery } from '../api/use-fleet-health';
import { FleetTable } from './fleet-table';
import { counted } from '../../../lib/words/counted';

/** Every backup of the tenant with its last verdict and how long ago it was verified. */
export function FleetSection() {
  const fleet = useFleetBackupsQuery();
  const now = useNow();
  return (
    <section className="panel" aria-labelledby="health-fleet">
      <h2 id="health-fleet" className="panel__title">
        Every backup
      </h2>
      {fleet.error && (
        <ErrorBanner
          title="Could not load the catalog"
          error={fleet.error}
          onRetry={() => void fleet.refetch()}
        />
      )}
      {fleet.isPending && <Spinner label="Loading every backup…" />}
      {fleet.data && fleet.data.backups.length === 0 && (
        <EmptyState title="No backups yet">Backups appear here with their last verdict.</EmptyState>
      )}
      {fleet.data && fleet.data.backups.length > 0 && (
        <>
          <FleetTable backups={fleet.data.backups} now={now} />
          {fleet.data.truncated && (
            <p className="muted">
              Showing the newest {counted(fleet.data.backups.length, 'backup')}.
            </p>
          )}
        </>
      )}
    </section>
  );
}
