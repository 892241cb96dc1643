import type { StoreOperationStatus } from '@store/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { useRoles } from '../../../lib/identity/use-roles';
import { isActiveState, kindLabel } from '../../../lib/operations/operation-kinds';
import { useActiveTenant } from '../../../lib/services';
import { useCancelOperationMutation } from '../api/use-cancel-operation-mutation';

/**
 * Cancel, only while the operation is queued or running, after a confirmation that names the
 * tenant and the operation. Cancelling needs the operator role (DESIGN.md §4).
 */
export function CancelOperationButton({ operation }: { operation: StoreOperationStatus }) {
  const [confirming, setConfirming] = useState(false);
  const tenant = useActiveTenant();
  const roles = useRoles();
  const cancel = useCancelOperationMutation();

  if (!isActiveState(operation.state)) return null;
  const label = kindLabel(operation.kind).toLowerCase();
  const allowed = roles.atLeast('operator') && !operation.cancelRequested;
  const reason = operation.cancelRequested
    ? 'Cancellation already requested'
    : roles.isLoading
      ? 'Checking your role…'
      : roles.needs('operator');

  return (
    <>
      <GuardedButton
        variant="danger"
        allowed={allowed}
        reason={reason}
        onClick={() => setConfirming(true)}
      >
        Cancel operation
      </GuardedButton>
      <ConfirmDialog
        open={confirming}
        title={`Cancel this ${label}?`}
        confirmLabel="Cancel operation"
        cancelLabel="Keep running"
        tone="danger"
        busy={cancel.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => cancel.mutate(operation, { onSettled: () => setConfirming(false) })}
      >
        <p>
          Cancel the {label} <strong className="mono">{operation.operationId}</strong>
          {operation.targetId && (
            <>
              {' '}
              on <strong>{operation.targetId}</strong>
            </>
          )}{' '}
          in tenant <strong>{tenant}</strong>?
        </p>
        <p className="muted">
          The server stops it at its next safe point. A cancelled operation cannot be resumed; start
          it again to retry.
        </p>
      </ConfirmDialog>
    </>
  );
}
