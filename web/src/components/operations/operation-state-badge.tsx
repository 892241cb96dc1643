import type { StoreOperationState } from '@store/contract';
import { isActiveState } from '../../lib/operations/operation-kinds';
import { operationOutcome, stateOutcome } from '../../lib/operations/operation-outcome';
import type { ConsoleOperation } from '../../lib/operations/schema-insight-operations';
import { useConnectivity } from '../../lib/services';
import { Badge } from '../ui/badge';

/**
 * The state of a tracked operation; "Cancelling" while a cancel is requested but not done. Given
 * the whole operation, a run that succeeded but found problems reads as a warning
 * ("Succeeded — 1 corrupt"), never plain green. While the server cannot be reached, queued or
 * running work reads "Unknown — server unreachable".
 */
export function OperationStateBadge({
  state,
  cancelRequested = false,
  operation,
}: {
  state: StoreOperationState;
  cancelRequested?: boolean;
  operation?: ConsoleOperation | undefined;
}) {
  const active = isActiveState(state);
  // Queued or running when last seen; what it is now, the server cannot say while it is gone.
  const unreachable = useConnectivity().unreachableSince !== null;
  if (active && unreachable) {
    return (
      <span className="state-unknown">
        <Badge tone="warning">Unknown — server unreachable</Badge>
      </span>
    );
  }
  const outcome = operation ? operationOutcome(operation) : stateOutcome(state);
  return (
    <Badge tone={outcome.tone}>
      {outcome.label}
      {active && cancelRequested ? ' (cancelling)' : ''}
    </Badge>
  );
}
