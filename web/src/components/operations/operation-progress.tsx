import type { StoreOperationStatus } from '@store/contract';
import { kindLabel } from '../../lib/operations/operation-kinds';
import { ProgressBar } from '../ui/progress-bar';

/** An operation's progress bar and its latest message. */
export function OperationProgress({ operation }: { operation: StoreOperationStatus }) {
  const progress = operation.progress;
  return (
    <div className="operation-progress">
      <ProgressBar
        label={`${kindLabel(operation.kind)} progress`}
        done={progress?.done ?? 0n}
        total={progress?.total ?? 0n}
        unit={progress?.unit}
      />
      {progress?.message && <p className="operation-progress__message">{progress.message}</p>}
    </div>
  );
}
