import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { FAST_POLL_MS } from '../../../lib/polling';
import { useActiveTenant, useConnectivity } from '../../../lib/services';
import { MAX_LIMIT, PAGE_SIZE } from '../utils/operation-filters';
import { useListOperationsQuery } from '../api/use-list-operations-query';
import { useOperationFilters } from '../hooks/use-operation-filters';
import { OperationsFilters } from './operations-filters';
import { OperationsTable } from './operations-table';

/** /operations: the tenant's tracked operations of both services, live. */
export function OperationsPage() {
  const tenant = useActiveTenant();
  const [filters, setFilters] = useOperationFilters();
  const list = useListOperationsQuery(filters);
  const unreachable = useConnectivity().unreachableSince !== null;
  const filtered = filters.states.length > 0 || filters.kinds.length > 0 || !!filters.targetId;

  return (
    <>
      <PageHeader
        title="Operations"
        description={
          <>
            Tracked operations of tenant <strong>{tenant}</strong>, newest first.{' '}
            <span className="muted">
              {unreachable
                ? 'Not updating while the server cannot be reached: the list is as it last was.'
                : list.pollMs === FAST_POLL_MS
                  ? 'Updating every second while operations run.'
                  : 'Checking for new operations every 15 seconds.'}
            </span>
          </>
        }
      />
      <OperationsFilters filters={filters} onChange={setFilters} />
      {list.error && (
        <ErrorBanner title="Could not load operations" error={list.error} onRetry={list.refetch} />
      )}
      {list.isPending && <Spinner label="Loading operations…" />}
      {!list.isPending && list.operations.length === 0 && !list.error && (
        <EmptyState
          title={filtered ? 'No operation matches these filters' : 'No operations yet'}
          action={
            filtered && (
              <Button
                onClick={() => setFilters({ ...filters, states: [], kinds: [], targetId: '' })}
              >
                Clear filters
              </Button>
            )
          }
        >
          {filtered
            ? 'Try another state or kind, or clear the target id.'
            : 'Backups, restores, health checks, scans and migrations started in this tenant show up here.'}
        </EmptyState>
      )}
      {list.operations.length > 0 && <OperationsTable operations={list.operations} />}
      {list.hasMore && filters.limit < MAX_LIMIT && (
        <div className="load-more">
          <Button onClick={() => setFilters({ ...filters, limit: filters.limit + PAGE_SIZE })}>
            Load more
          </Button>
        </div>
      )}
      {list.hasMore && filters.limit >= MAX_LIMIT && (
        <p className="muted">
          Showing the newest {MAX_LIMIT} operations. Narrow the filters to see older ones.
        </p>
      )}
    </>
  );
}
