import { StoreOperationState } from '@store/contract';
import { stateLabel } from '../../lib/operations/operation-kinds';
import { Badge, type BadgeTone } from '../ui/badge';

const TONES: Partial<Record<StoreOperationState, BadgeTone>> = {
  [StoreOperationState.QUEUED]: 'neutral',
  [StoreOperationState.RUNNING]: 'info',
  [StoreOperationState.SUCCEEDED]: 'success',
  [StoreOperationState.FAILED]: 'danger',
  // Someone decided to stop it: not a failure.
  [StoreOperationState.CANCELLED]: 'neutral',
};

/** The state of a tracked operation; "Cancelling" while a cancel is requested but not done. */
export function OperationStateBadge({
  state,
  cancelRequested = false,
}: {
  state: StoreOperationState;
  cancelRequested?: boolean;
}) {
  const active = state === StoreOperationState.QUEUED || state === StoreOperationState.RUNNING;
  return (
    <Badge tone={TONES[state] ?? 'neutral'}>
      {stateLabel(state)}
      {active && cancelRequested ? ' (cancelling)' : ''}
    </Badge>
  );
}
