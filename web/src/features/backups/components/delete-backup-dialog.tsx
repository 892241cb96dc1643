import { Code, ConnectError } from '@connectrpc/connect';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { useBackupNames } from '../../../lib/backups/use-backup-names';
import { useDeleteBackupMutation } from '../api/use-delete-backup-mutation';
import type { ProtectedDependant } from '../hooks/use-delete-guard';

export interface DeleteBackupDialogProps {
  open: boolean;
  backupId: string;
  /** The backup's name, which the confirmation says (the id when it has none). */
  name?: string;
  /** Backups whose chain runs through this one, from DescribeBackup. */
  dependants: readonly string[];
  /** A dependant that is protected: cascade would delete it, so cascade is not offered. */
  protectedDependant?: ProtectedDependant | undefined;
  onClose: () => void;
}

/**
 * Delete after a confirmation naming the tenant and the backup. The server refuses
 * (FailedPrecondition) while incrementals depend on it; the refusal is shown as it came and
 * cascade is offered explicitly, listing what it would also delete.
 */
export function DeleteBackupDialog({
  open,
  backupId,
  name,
  dependants,
  protectedDependant,
  onClose,
}: DeleteBackupDialogProps) {
  const names = useBackupNames(open ? dependants : []);
  const dependantNames = dependants.map((id) => names.get(id) ?? id).join(', ');
  const tenant = useActiveTenant();
  const navigate = useNavigate();
  const remove = useDeleteBackupMutation();
  const [cascade, setCascade] = useState(false);
  // A protected backup is refused with the same code, its message naming the protection;
  // cascade would not help there.
  const refusal = remove.error === null ? null : ConnectError.from(remove.error);
  const refusedForDependants =
    refusal !== null &&
    refusal.code === Code.FailedPrecondition &&
    !refusal.rawMessage.includes(' is protected by ');

  const close = () => {
    remove.reset();
    setCascade(false);
    onClose();
  };
  const confirm = () =>
    remove.mutate(
      { backupId, cascade },
      {
        onSuccess: () => {
          close();
          void navigate(paths.backups);
        },
      },
    );

  return (
    <Dialog
      open={open}
      title={cascade ? 'Delete this backup and its dependants?' : 'Delete this backup?'}
      onClose={close}
      footer={
        <DialogActions
          dismiss={
            <Button onClick={close} disabled={remove.isPending} autoFocus>
              Keep it
            </Button>
          }
          primary={
            <Button variant="danger" onClick={confirm} busy={remove.isPending}>
              {cascade ? `Delete ${dependants.length + 1} backups` : 'Delete backup'}
            </Button>
          }
        />
      }
    >
      <div className="dialog__message">
        <p>
          Delete backup <strong>{name || backupId}</strong> in tenant <strong>{tenant}</strong>? Its
          artifacts are removed from the store; this cannot be undone.
        </p>
        {dependants.length > 0 && (
          <p className="muted">
            {dependants.length === 1
              ? '1 incremental builds'
              : `${dependants.length} incrementals build`}{' '}
            on it: {dependantNames}.
          </p>
        )}
        {remove.error !== null && (
          <ErrorBanner title="The server refused the delete" error={remove.error} />
        )}
        {(dependants.length > 0 || refusedForDependants) && (
          <label className="bk-choice">
            <input
              type="checkbox"
              checked={cascade}
              disabled={protectedDependant !== undefined}
              aria-describedby={protectedDependant ? 'cascade-protected' : undefined}
              onChange={(e) => setCascade(e.target.checked)}
            />
            <span>
              Also delete the backups that depend on it (cascade)
              {dependants.length > 0 && <>: {dependantNames}</>}
            </span>
          </label>
        )}
        {protectedDependant && (
          <p id="cascade-protected" className="muted" data-testid="cascade-protected">
            Cascade is not possible:{' '}
            {names.get(protectedDependant.protection.backupId) ??
              protectedDependant.protection.backupId}{' '}
            is protected by {protectedDependant.by}
            {protectedDependant.protection.reason && ` (${protectedDependant.protection.reason})`},
            and the backups it needs are kept with it.
          </p>
        )}
      </div>
    </Dialog>
  );
}
