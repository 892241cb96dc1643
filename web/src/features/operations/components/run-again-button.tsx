import type { StoreOperationStatus } from '@store/contract';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { useRoles } from '../../../lib/identity/use-roles';
import { runAgainRequest } from '../utils/run-again';
import { useRunAgainMutation } from '../api/use-run-again-mutation';

/**
 * "Run again with the same settings" on a failed operation whose request the status carries
 * whole (api/run-again); nothing where it does not. Both kinds need an operator.
 */
export function RunAgainButton({ operation }: { operation: StoreOperationStatus }) {
  const request = runAgainRequest(operation);
  const roles = useRoles();
  const start = useRunAgainMutation();
  if (!request) return null;
  const allowed = roles.atLeast('operator');
  return (
    <GuardedButton
      allowed={allowed}
      reason={roles.isLoading ? 'Checking your role…' : roles.needs('operator')}
      busy={start.isPending}
      onClick={() => start.mutate(request)}
    >
      Run again with the same settings
    </GuardedButton>
  );
}
