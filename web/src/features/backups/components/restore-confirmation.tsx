import type { BackupManifest } from '@store/contract';
import { useCallback, useId, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { formatCount } from '../../../lib/format';
import type { RestoreDraft } from '../utils/restore-draft';
import {
  restoreGate,
  restoreRequestKey,
  TREE_CHANGED_REASON,
  type RestorePreviewRecord,
} from '../utils/restore-guard';
import {
  useCheckPreviewFreshness,
  useInsightOperationQuery,
} from '../../../lib/comparisons/use-backup-comparison';
import { RestorePreviewPanel } from './restore-preview-panel';

export interface RestoreConfirmationProps {
  manifest: BackupManifest;
  draft: RestoreDraft;
  tenant: string;
  /** The tree the restore replaces. */
  target: string;
  pending: boolean;
  /** The dialog's last preview, kept across Back and Continue; null when there is none. */
  preview: RestorePreviewRecord | null;
  onPreview: (preview: RestorePreviewRecord | null) => void;
  onBack: () => void;
  onRestore: () => void;
}

interface Staleness {
  previewed: bigint;
  now: bigint;
}

/**
 * The second step of an in-place restore: the preview of what it would change, then the
 * confirmation naming tenant and tree. "Restore in place" stays disabled, its reason beside it,
 * until the preview of exactly this request has succeeded. Right before restoring it asks whether
 * the tree changed since the preview; if so it restores nothing and asks for a new preview.
 */
export function RestoreConfirmation(props: RestoreConfirmationProps) {
  const { manifest, draft, tenant, target, pending, preview, onPreview, onBack, onRestore } = props;
  const [stale, setStale] = useState<Staleness | null>(null);
  const [checkError, setCheckError] = useState<unknown>(null);
  const [checking, setChecking] = useState(false);
  // A new key restarts the preview panel (preview again).
  const [round, setRound] = useState(0);
  const reasonId = useId();
  const checkFreshness = useCheckPreviewFreshness();
  const requestKey = restoreRequestKey(manifest.backupId, manifest.treeId, draft);
  // A preview made for another request (the dialog went back, something changed) does not count.
  const previewId = preview?.request === requestKey ? preview.operationId : '';
  const previewState = useInsightOperationQuery(previewId).data?.state;
  const gate = restoreGate({
    previewState: previewId ? previewState : undefined,
    treeChanged: !!stale,
  });
  const request = useMemo(
    () => ({
      backupId: manifest.backupId,
      cold: draft.cold,
      ...(draft.keyPrefix !== '' && {
        scope: { treeId: manifest.treeId, keyPrefix: draft.keyPrefix },
      }),
    }),
    [manifest.backupId, manifest.treeId, draft.cold, draft.keyPrefix],
  );
  const onStarted = useCallback(
    (operationId: string) => onPreview({ request: requestKey, operationId }),
    [onPreview, requestKey],
  );

  const restore = async () => {
    if (!gate.open) return;
    setChecking(true);
    setCheckError(null);
    try {
      const answer = await checkFreshness(previewId);
      if (answer.report && answer.treeChanged) {
        setStale({ previewed: answer.report.treeSequence, now: answer.currentTreeSequence });
        return;
      }
    } catch (error) {
      // Unchecked is not fresh: the restore waits until the check can be made.
      setCheckError(error);
      return;
    } finally {
      setChecking(false);
    }
    onRestore();
  };
  const previewAgain = () => {
    setStale(null);
    setCheckError(null);
    onPreview(null);
    setRound(round + 1);
  };

  return (
    <div className="stack" role="group" aria-label="Confirm the in-place restore">
      <RestorePreviewPanel
        key={round}
        request={request}
        operationId={previewId || undefined}
        onStarted={onStarted}
      />
      <p>
        Replace the contents of tree <strong>{target}</strong> in tenant <strong>{tenant}</strong>{' '}
        with backup <strong>{manifest.name || manifest.backupId}</strong>
        {draft.keyPrefix && (
          <>
            {' '}
            (keys under <span className="mono">{draft.keyPrefix}</span>)
          </>
        )}
        ?
      </p>
      <p className="muted">
        Writes made to the tree after the backup are replaced. You can revert from the restore’s
        operation page once it has finished.
      </p>
      {stale && (
        // The button's reason, too: it says why the restore stays disabled.
        <div id={reasonId} className="warning-banner" role="alert">
          <p>
            <strong>{TREE_CHANGED_REASON}</strong> Tree <strong>{target}</strong> changed after this
            preview was made (sequence {formatCount(stale.previewed)} → {formatCount(stale.now)}):
            restoring now would not do what the preview shows.
          </p>
        </div>
      )}
      {checkError !== null && (
        <ErrorBanner
          title="Could not check whether the tree changed since the preview"
          error={checkError}
        />
      )}
      {!gate.open && !stale && (
        <p id={reasonId} className="muted" data-testid="restore-gate-reason">
          {gate.reason}
        </p>
      )}
      <DialogActions
        dismiss={
          <Button onClick={onBack} disabled={pending} autoFocus>
            Back
          </Button>
        }
        others={
          !gate.open && gate.previewAgain && <Button onClick={previewAgain}>Preview again</Button>
        }
        primary={
          <Button
            variant="danger"
            onClick={() => void restore()}
            busy={pending || checking}
            disabled={!gate.open}
            aria-describedby={gate.open ? undefined : reasonId}
          >
            Restore in place
          </Button>
        }
      />
    </div>
  );
}
