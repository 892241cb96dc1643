import {
  StoreBackupApiOperation,
  StoreOperationState,
  StoreRestoreMode,
  type StoreOperationStatus,
  type StoreRestoreResult,
} from '@store/contract';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { useBackupCapabilities } from '../../../lib/capabilities/use-backup-capabilities';
import { useActiveTenant } from '../../../lib/services';
import { useRevertRestoreMutation } from '../hooks/use-revert-restore-mutation';

/** Whether a finished restore can be reverted: a SUCCEEDED in-place restore that replaced a tree. */
export function isRevertible(
  operation: StoreOperationStatus,
  restore: StoreRestoreResult,
): boolean {
  const inPlace =
    restore.mode === StoreRestoreMode.IN_PLACE || restore.mode === StoreRestoreMode.UNSPECIFIED;
  return (
    operation.state === StoreOperationState.SUCCEEDED && inPlace && !!restore.previousPhysicalTreeId
  );
}

/**
 * Revert of a finished in-place restore (RevertRestore with the stored restore result), after a
 * confirmation naming the tenant and the tree. The server refuses a second revert, or one after
 * the tree changed; the refusal is shown here.
 */
export function RevertRestoreButton({
  operation,
  restore,
}: {
  operation: StoreOperationStatus;
  restore: StoreRestoreResult;
}) {
  const tenant = useActiveTenant();
  const caps = useBackupCapabilities(restore.targetTreeId || undefined);
  const revert = useRevertRestoreMutation();
  const [confirming, setConfirming] = useState(false);

  if (!isRevertible(operation, restore)) return null;
  const close = () => {
    setConfirming(false);
    revert.reset();
  };
  return (
    <>
      {revert.isSuccess ? (
        <p role="status">
          Reverted: tree <strong>{restore.targetTreeId}</strong> is back to what it held before this
          restore.
        </p>
      ) : (
        <GuardedButton
          variant="danger"
          {...caps.guard(StoreBackupApiOperation.REVERT_RESTORE)}
          onClick={() => setConfirming(true)}
        >
          Revert restore
        </GuardedButton>
      )}
      <ConfirmDialog
        open={confirming}
        title="Revert this restore?"
        confirmLabel="Revert restore"
        cancelLabel="Keep the restored data"
        tone="danger"
        busy={revert.isPending}
        onCancel={close}
        onConfirm={() => revert.mutate(restore, { onSuccess: () => setConfirming(false) })}
      >
        <p>
          Swap tree <strong>{restore.targetTreeId}</strong> in tenant <strong>{tenant}</strong> back
          to the contents it had before restore{' '}
          <strong className="mono">{restore.operationId}</strong> of backup{' '}
          <span className="mono">{restore.backupId}</span>?
        </p>
        <p className="muted">
          Writes made to the tree since the restore are refused by the server.
        </p>
        {revert.error && <ErrorBanner title="The server refused the revert" error={revert.error} />}
      </ConfirmDialog>
    </>
  );
}
