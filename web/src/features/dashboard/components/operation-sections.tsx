import type { StoreOperationStatus } from '@store/contract';
import { Link } from 'react-router';
import {
  createdColumn,
  operationColumn,
  targetColumn,
} from '../../../components/operations/operation-columns';
import { OperationProgress } from '../../../components/operations/operation-progress';
import { ErrorText } from '../../../components/ui/error-text';
import type { Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { paths } from '../../../lib/paths';
import type { RecentOperations } from '../api/use-list-recent-operations-query';
import { failedSince } from '../utils/attention';
import { DashboardTableSection } from './dashboard-section';

const failedColumns: readonly Column<StoreOperationStatus>[] = [
  operationColumn,
  targetColumn,
  {
    id: 'error',
    header: 'Error',
    cell: (op) =>
      op.error ? <ErrorText operationError={op.error} /> : <span className="muted">—</span>,
  },
  { id: 'finished', header: 'Finished', cell: (op) => <Time value={op.finishedAt} /> },
];

const runningColumns: readonly Column<StoreOperationStatus>[] = [
  operationColumn,
  targetColumn,
  { id: 'progress', header: 'Progress', cell: (op) => <OperationProgress operation={op} /> },
  createdColumn,
];

/** Operations of both services that failed in the last 24 hours. */
export function FailedOperationsSection({ operations }: { operations: RecentOperations }) {
  const failed = failedSince(operations.recent, operations.sinceMs);
  return (
    <DashboardTableSection
      title="Failed in the last 24 hours"
      wide
      isPending={operations.isPending}
      error={operations.error}
      onRetry={operations.refetch}
      emptyTitle="No operation failed in the last 24 hours"
      more={<Link to={`${paths.operations}?state=FAILED`}>All failed operations</Link>}
      caption="Operations that failed in the last 24 hours, newest first"
      columns={failedColumns}
      rows={failed}
      rowKey={(op) => op.operationId}
    >
      {operations.truncated && (
        <p className="muted">Only the newest 1 000 operations of the day are checked.</p>
      )}
    </DashboardTableSection>
  );
}

/** Operations queued or running now. */
export function RunningOperationsSection({ operations }: { operations: RecentOperations }) {
  return (
    <DashboardTableSection
      title="Running now"
      tone="info"
      isPending={operations.isPending}
      error={operations.error}
      onRetry={operations.refetch}
      emptyTitle="Nothing is running"
      emptyText="Backups, restores, checks, scans and migrations show here while they run."
      more={<Link to={`${paths.operations}?state=QUEUED&state=RUNNING`}>Queued and running</Link>}
      caption="Queued and running operations"
      columns={runningColumns}
      rows={operations.active}
      rowKey={(op) => op.operationId}
    />
  );
}
