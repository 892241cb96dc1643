import {
  StoreBackupApiOperation,
  StoreOperationState,
  StoreRestoreMode,
  type StoreOperationStatus,
  type StoreRestoreResult,
} from '@store/contract';
import { useState } from 'react';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { useBackupCapabilities } from '../../../lib/capabilities/use-backup-capabilities';
import { useActiveTenant } from '../../../lib/services';
import { useRevertRestoreMutation } from '../api/use-revert-restore-mutation';
import { RevertRestoreDialog } from './revert-restore-dialog';

/**
 * Whether a finished restore can be reverted: a SUCCEEDED in-place restore that replaced a tree
 * and was not reverted already.
 */
export function isRevertible(
  operation: StoreOperationStatus,
  restore: StoreRestoreResult,
): boolean {
  const inPlace =
    restore.mode === StoreRestoreMode.IN_PLACE || restore.mode === StoreRestoreMode.UNSPECIFIED;
  return (
    operation.state === StoreOperationState.SUCCEEDED &&
    inPlace &&
    !!restore.previousPhysicalTreeId &&
    !restore.revertedAt
  );
}

/**
 * Revert of a finished in-place restore (RevertRestore with the stored restore result), after a
 * confirmation that previews the revert and says what happens to the writes made since the
 * restore (RevertRestoreDialog). The server refuses a second revert, or one after the tree was
 * restored again; the refusal is shown in the confirmation.
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

  // Once reverted the status says by whom and when; this tab's own revert keeps its word too.
  if (!revert.isSuccess && !isRevertible(operation, restore)) return null;
  const close = () => setConfirming(false);
  const open = () => {
    revert.reset();
    setConfirming(true);
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
          onClick={open}
        >
          Revert restore
        </GuardedButton>
      )}
      {/* Mounted only while open: each opening previews the tree as it is then. */}
      {confirming && (
        <RevertRestoreDialog restore={restore} tenant={tenant} revert={revert} onClose={close} />
      )}
    </>
  );
}
