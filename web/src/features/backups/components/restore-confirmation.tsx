import type { BackupManifest } from '@store/contract';
import { useCallback, useMemo, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { formatCount } from '../../../lib/format';
import type { RestoreDraft } from '../api/restore-draft';
import { useCheckPreviewFreshness } from '../../../lib/comparisons/use-backup-comparison';
import { RestorePreviewPanel } from './restore-preview-panel';

export interface RestoreConfirmationProps {
  manifest: BackupManifest;
  draft: RestoreDraft;
  tenant: string;
  /** The tree the restore replaces. */
  target: string;
  pending: boolean;
  onBack: () => void;
  onRestore: () => void;
}

interface Staleness {
  previewed: bigint;
  now: bigint;
}

/**
 * The second step of an in-place restore: the preview of what it would change, then the
 * confirmation naming tenant and tree. Right before restoring it asks whether the tree changed
 * after the preview; if so it says so and needs a second, explicit "Restore anyway".
 */
export function RestoreConfirmation(props: RestoreConfirmationProps) {
  const { manifest, draft, tenant, target, pending, onBack, onRestore } = props;
  const [previewId, setPreviewId] = useState('');
  const [stale, setStale] = useState<Staleness | null>(null);
  const [checking, setChecking] = useState(false);
  // A new key restarts the preview panel (after the tree changed).
  const [round, setRound] = useState(0);
  const checkFreshness = useCheckPreviewFreshness();
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
  const onStarted = useCallback((id: string) => setPreviewId(id), []);

  const restore = async () => {
    if (previewId && !stale) {
      setChecking(true);
      try {
        const answer = await checkFreshness(previewId);
        if (answer.report && answer.treeChanged) {
          setStale({ previewed: answer.report.treeSequence, now: answer.currentTreeSequence });
          return;
        }
      } catch {
        // The check is advice: when it cannot be made the restore goes ahead as confirmed.
      } finally {
        setChecking(false);
      }
    }
    onRestore();
  };
  const previewAgain = () => {
    setStale(null);
    setPreviewId('');
    setRound(round + 1);
  };

  return (
    <div className="stack" role="group" aria-label="Confirm the in-place restore">
      <RestorePreviewPanel key={round} request={request} onStarted={onStarted} />
      <p>
        Replace the contents of tree <strong>{target}</strong> in tenant <strong>{tenant}</strong>{' '}
        with backup <strong className="mono">{manifest.backupId}</strong>
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
        <div className="warning-banner" role="alert">
          <p>
            Tree <strong>{target}</strong> changed after this preview was made (sequence{' '}
            {formatCount(stale.previewed)} → {formatCount(stale.now)}): the restore will not do
            exactly what the preview shows, and it replaces those newer writes too.
          </p>
          <Button onClick={previewAgain}>Preview again</Button>
        </div>
      )}
      <div className="bk-actions">
        <Button onClick={onBack} disabled={pending} autoFocus>
          Back
        </Button>
        <Button variant="danger" onClick={() => void restore()} busy={pending || checking}>
          {stale ? 'Restore anyway' : 'Restore in place'}
        </Button>
      </div>
    </div>
  );
}
