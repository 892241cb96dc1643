import type { StoreOperationStatus } from '@store/contract';
import { Link } from 'react-router';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Table, type Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { isActiveState, kindLabel } from '../../../lib/operations/operation-kinds';
import { paths } from '../../../lib/paths';
import { OperationDuration } from './operation-duration';

const columns: readonly Column<StoreOperationStatus>[] = [
  {
    id: 'operation',
    header: 'Operation',
    cell: (op) => (
      <Link to={paths.operation(op.operationId)}>
        {kindLabel(op.kind)}
        <span className="mono muted table__sub">{op.operationId}</span>
      </Link>
    ),
  },
  { id: 'target', header: 'Target', cell: (op) => op.targetId ?? <span className="muted">—</span> },
  {
    id: 'state',
    header: 'State',
    cell: (op) => <OperationStateBadge state={op.state} cancelRequested={op.cancelRequested} />,
  },
  {
    id: 'progress',
    header: 'Progress',
    cell: (op) =>
      isActiveState(op.state) ? (
        <ProgressBar
          label={`${kindLabel(op.kind)} ${op.operationId} progress`}
          done={op.progress?.done ?? 0n}
          total={op.progress?.total ?? 0n}
          unit={op.progress?.unit}
        />
      ) : (
        <span className="muted">{op.error ? op.error.message : (op.progress?.message ?? '')}</span>
      ),
  },
  { id: 'created', header: 'Created', cell: (op) => <Time value={op.createdAt} /> },
  { id: 'duration', header: 'Duration', cell: (op) => <OperationDuration operation={op} /> },
  { id: 'by', header: 'By', cell: (op) => op.createdBy || <span className="muted">—</span> },
];

/** The operations list as a table, one row per operation. */
export function OperationsTable({ operations }: { operations: readonly StoreOperationStatus[] }) {
  return (
    <Table
      caption="Tracked operations, newest first"
      captionHidden
      columns={columns}
      rows={operations}
      rowKey={(op) => op.operationId}
    />
  );
}
