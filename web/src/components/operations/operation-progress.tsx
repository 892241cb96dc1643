import { StoreOperationState, type StoreOperationStatus } from '@store/contract';
import { toDate } from '../../lib/format';
import { isActiveState, kindLabel } from '../../lib/operations/operation-kinds';
import { humanizeProgressMessage } from '../../lib/progress/estimate';
import { ProgressBar } from '../ui/progress-bar';

/**
 * An operation's progress bar and its latest message. The rate and the time left come from the
 * operation's start and the time of its last progress write; a finished one is still.
 */
export function OperationProgress({ operation }: { operation: StoreOperationStatus }) {
  const progress = operation.progress;
  const phase = isActiveState(operation.state)
    ? 'running'
    : operation.state === StoreOperationState.SUCCEEDED
      ? 'complete'
      : 'stopped';
  return (
    <div className="operation-progress">
      <ProgressBar
        label={`${kindLabel(operation.kind)} progress`}
        done={progress?.done ?? 0n}
        total={progress?.total ?? 0n}
        unit={progress?.unit}
        startedAt={toDate(operation.startedAt)}
        measuredAt={phase === 'running' ? toDate(operation.updatedAt) : undefined}
        phase={phase}
      />
      {progress?.message && (
        <p className="operation-progress__message">{humanizeProgressMessage(progress.message)}</p>
      )}
    </div>
  );
}
