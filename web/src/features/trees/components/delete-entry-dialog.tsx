import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useActiveTenant, useToast } from '../../../lib/services';
import { useDeleteEntryMutation } from '../api/use-entry-mutations';

/** Confirms deleting one entry, naming the tenant, the tree and the key. */
export function DeleteEntryDialog({
  treeId,
  entryKey,
  onDone,
  onCancel,
}: {
  treeId: string;
  entryKey: string;
  /** Called after the server answered (the entry is gone, or was already). */
  onDone: () => void;
  onCancel: () => void;
}) {
  const tenant = useActiveTenant();
  const toast = useToast();
  const remove = useDeleteEntryMutation(treeId);
  return (
    <ConfirmDialog
      open
      title="Delete this entry?"
      confirmLabel="Delete entry"
      tone="danger"
      busy={remove.isPending}
      onCancel={onCancel}
      onConfirm={() =>
        remove.mutate(entryKey, {
          onSuccess: (deleted) => {
            toast(
              deleted
                ? { tone: 'success', title: `Entry ${entryKey} deleted`, detail: `Tree ${treeId}` }
                : { tone: 'info', title: `Entry ${entryKey} was already gone` },
            );
            onDone();
          },
        })
      }
    >
      <p>
        Delete the entry <strong className="mono">{entryKey}</strong> from tree{' '}
        <strong>{treeId}</strong> in tenant <strong>{tenant}</strong>?
      </p>
      <p className="muted">
        The delete is recorded as a tombstone: the next incremental backup captures it, and earlier
        backups still hold the value.
      </p>
    </ConfirmDialog>
  );
}
