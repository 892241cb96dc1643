import type { StoreOperationStatus } from '@store/contract';
import {
  createdColumn,
  operationColumn,
  targetColumn,
} from '../../../components/operations/operation-columns';
import { SubjectName } from '../../../components/identity/subject-name';
import { useCancelledText } from '../../../components/operations/operation-error-notice';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { RestoreReverted } from '../../../components/operations/restore-reverted';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { Table, type Column } from '../../../components/ui/table';
import { explainOperationError, isCancellation } from '../../../lib/errors';
import { toDate } from '../../../lib/format';
import { isActiveState, kindLabel } from '../../../lib/operations/operation-kinds';
import { humanizeProgressMessage } from '../../../lib/progress/estimate';
import { resultBrief } from '../utils/result-brief';
import { OperationDuration } from './operation-duration';

/**
 * Five columns, so the list fits beside the docked tray at 1440 px (about 880 px of table): the
 * progress bar or the finished result sits under the state, the duration under the start time.
 */
const columns: readonly Column<StoreOperationStatus>[] = [
  operationColumn,
  targetColumn,
  {
    id: 'state',
    header: 'State',
    cell: (op) => (
      <div className="operations-list__state">
        <OperationStateBadge state={op.state} cancelRequested={op.cancelRequested} operation={op} />
        {isActiveState(op.state) ? (
          <ProgressBar
            label={`${kindLabel(op.kind)} ${op.operationId} progress`}
            done={op.progress?.done ?? 0n}
            total={op.progress?.total ?? 0n}
            unit={op.progress?.unit}
            startedAt={toDate(op.startedAt)}
            measuredAt={toDate(op.updatedAt)}
          />
        ) : (
          <FinishedNote op={op} />
        )}
      </div>
    ),
  },
  {
    ...createdColumn,
    cell: (op) => (
      <>
        {createdColumn.cell(op)}
        <span className="table__sub muted">
          <OperationDuration operation={op} />
        </span>
      </>
    ),
  },
  { id: 'by', header: 'By', cell: (op) => <SubjectName subject={op.createdBy} /> },
];

/** The operations list as a table, one row per operation. */
export function OperationsTable({ operations }: { operations: readonly StoreOperationStatus[] }) {
  return (
    <div className="operations-list">
      <Table
        caption="Tracked operations, newest first"
        captionHidden
        columns={columns}
        rows={operations}
        rowKey={(op) => op.operationId}
      />
    </div>
  );
}

/**
 * A finished operation's last word: who cancelled it (by name), what went wrong, or its last
 * message; a reverted restore says by whom and when below it.
 */
function FinishedNote({ op }: { op: StoreOperationStatus }) {
  const cancelled = useCancelledText(op);
  return (
    <>
      <span className="muted">{finishedNote(op, cancelled)}</span>
      <RestoreReverted operation={op} className="muted table__sub" />
    </>
  );
}

function finishedNote(op: StoreOperationStatus, cancelled: string): string {
  if (isCancellation(op.error)) return cancelled;
  if (op.error) return explainOperationError(op.error).what;
  return resultBrief(op) ?? humanizeProgressMessage(op.progress?.message ?? '');
}
