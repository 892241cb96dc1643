import type { TreeEntry } from '@store/contract';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import { formatCount } from '../../../lib/format';
import { formatJsonText } from '../utils/json-text';
import { useGetEntryQuery } from '../api/use-get-entry-query';

export interface EntryValueDialogProps {
  treeId: string;
  entryKey: string;
  write: { allowed: boolean; reason: string };
  onEdit: (entry: TreeEntry) => void;
  onDelete: (key: string) => void;
  onClose: () => void;
}

/** One entry's value as formatted JSON, read fresh with GetEntry (the key is in the URL). */
export function EntryValueDialog({
  treeId,
  entryKey,
  write,
  onEdit,
  onDelete,
  onClose,
}: EntryValueDialogProps) {
  const query = useGetEntryQuery(treeId, entryKey);
  const entry = query.data;
  return (
    <Dialog
      open
      title={`Entry ${entryKey}`}
      onClose={onClose}
      footer={
        <DialogActions
          others={
            entry && (
              <>
                {/* Delete is quiet here: the solid red button is the confirm's. */}
                <Button
                  variant="danger-quiet"
                  disabled={!write.allowed}
                  title={write.allowed ? undefined : write.reason}
                  onClick={() => onDelete(entry.key)}
                >
                  Delete
                </Button>
                <Button
                  disabled={!write.allowed}
                  title={write.allowed ? undefined : write.reason}
                  onClick={() => onEdit(entry)}
                >
                  Edit
                </Button>
              </>
            )
          }
          primary={
            <Button variant="primary" onClick={onClose} autoFocus>
              Close
            </Button>
          }
        />
      }
    >
      {query.isPending && <Spinner label="Loading the value…" />}
      {query.error && (
        <ErrorBanner
          title="Could not read the entry"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      )}
      {query.isSuccess && entry === null && (
        <p>
          No live entry has the key <strong className="mono">{entryKey}</strong> in tree{' '}
          <strong>{treeId}</strong> (it may have been deleted).
        </p>
      )}
      {entry && (
        <div className="stack">
          <dl className="facts">
            <dt>Sequence</dt>
            <dd>{formatCount(entry.sequence)}</dd>
            <dt>Schema version</dt>
            <dd>{entry.schemaVersion}</dd>
            <dt>Updated</dt>
            <dd>
              <Time value={entry.updatedAt} />
            </dd>
          </dl>
          {!write.allowed && <p className="guarded__reason">{write.reason}</p>}
          <pre className="json-view" aria-label={`Value of ${entry.key}`} tabIndex={0}>
            {formatJsonText(entry.valueJson)}
          </pre>
        </div>
      )}
    </Dialog>
  );
}
