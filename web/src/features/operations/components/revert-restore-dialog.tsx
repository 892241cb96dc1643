import { StoreOperationState, type StoreRestoreResult } from '@store/contract';
import { useCallback, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import {
  useBackupComparisonQuery,
  useInsightOperationQuery,
} from '../../../lib/comparisons/use-backup-comparison';
import { formatCount } from '../../../lib/format';
import { isTerminalState } from '../../../lib/operations/operation-kinds';
import type { useRevertRestoreMutation } from '../api/use-revert-restore-mutation';
import { RevertPreviewPanel } from './revert-preview-panel';

/** "1 write" / "3 writes". */
function writesLabel(count: bigint): string {
  return `${formatCount(count)} write${count === 1n ? '' : 's'}`;
}

export interface RevertRestoreDialogProps {
  restore: StoreRestoreResult;
  tenant: string;
  revert: ReturnType<typeof useRevertRestoreMutation>;
  onClose: () => void;
}

/**
 * The revert's confirmation: a revert preview (what the revert removes, changes back and brings
 * back), then exactly what happens to the writes made since the restore. With any, the confirm
 * needs an explicit acknowledgment. The confirm sends the preview's count and the tree's sequence
 * mark it read; the server refuses the revert when the tree was written since the preview (even a
 * key it already counted), and "Preview again" shows the tree as it is then.
 */
export function RevertRestoreDialog({
  restore,
  tenant,
  revert,
  onClose,
}: RevertRestoreDialogProps) {
  // A new key restarts the preview panel (after the server refused a stale count).
  const [round, setRound] = useState(0);
  const [previewId, setPreviewId] = useState('');
  const [startFailed, setStartFailed] = useState(false);
  const [acknowledged, setAcknowledged] = useState(false);
  const operation = useInsightOperationQuery(previewId);
  const state = operation.data?.state;
  const comparison = useBackupComparisonQuery(previewId, state === StoreOperationState.SUCCEEDED);
  const report = comparison.data?.report;
  const writes = report?.writesSinceRestore;
  const previewUnavailable =
    startFailed ||
    !!operation.error ||
    !!comparison.error ||
    (state !== undefined && isTerminalState(state) && state !== StoreOperationState.SUCCEEDED);
  const onStarted = useCallback((id: string) => setPreviewId(id), []);
  const onStartFailed = useCallback(() => setStartFailed(true), []);

  const hasWrites = writes !== undefined && writes > 0n;
  const ready = previewUnavailable || (writes !== undefined && (!hasWrites || acknowledged));
  const previewAgain = () => {
    revert.reset();
    setAcknowledged(false);
    setStartFailed(false);
    setPreviewId('');
    setRound(round + 1);
  };
  // Without a preview nothing is acknowledged: the server then refuses if any write was made.
  const acknowledgment =
    report && writes !== undefined ? { writes, throughSequence: report.treeSequence } : undefined;
  const confirm = () => revert.mutate({ restore, acknowledgment }, { onSuccess: onClose });

  return (
    <ConfirmDialog
      open
      title="Revert this restore?"
      confirmLabel={hasWrites ? `Revert and discard ${writesLabel(writes)}` : 'Revert restore'}
      cancelLabel="Keep the restored data"
      tone="danger"
      busy={revert.isPending}
      confirmDisabled={!ready}
      onCancel={onClose}
      onConfirm={confirm}
    >
      <p>
        Swap tree <strong>{restore.targetTreeId}</strong> in tenant <strong>{tenant}</strong> back
        to the contents it had before restore{' '}
        <strong className="mono">{restore.operationId}</strong> of backup{' '}
        <span className="mono">{restore.backupId}</span>?
      </p>
      <RevertPreviewPanel
        key={round}
        restoreOperationId={restore.operationId}
        onStarted={onStarted}
        onStartFailed={onStartFailed}
      />
      {previewUnavailable ? (
        <p className="muted">
          Without a preview the console cannot say whether writes were made since the restore; if
          any were, the server refuses the revert and names how many.
        </p>
      ) : writes === undefined ? (
        <p className="muted">Checking for writes made to the tree since the restore…</p>
      ) : hasWrites ? (
        <div className="warning-banner revert-writes" role="alert" data-testid="revert-writes">
          <p>
            <strong>{writesLabel(writes)} made since the restore will be discarded.</strong> Keys
            written or deleted in tree {restore.targetTreeId} after the restore lose those changes:
            the preview above shows what each key holds now and after the revert.
          </p>
          <label className="bk-choice">
            <input
              type="checkbox"
              checked={acknowledged}
              onChange={(event) => setAcknowledged(event.target.checked)}
            />
            <span>Discard the {writesLabel(writes)} made since the restore</span>
          </label>
        </div>
      ) : (
        <p data-testid="revert-writes">
          No writes since the restore: the revert discards nothing written after it.
        </p>
      )}
      {revert.error && (
        <>
          <ErrorBanner title="The server refused the revert" error={revert.error} />
          <div>
            <Button onClick={previewAgain}>Preview again</Button>
          </div>
        </>
      )}
    </ConfirmDialog>
  );
}
