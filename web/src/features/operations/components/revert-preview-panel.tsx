import { useEffect, useRef } from 'react';
import { ComparisonView } from '../../../components/comparisons/comparison-view';
import type { ChangeLabels } from '../../../components/comparisons/comparison-counts';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { useStartRevertPreviewMutation } from '../../../lib/comparisons/use-backup-comparison';

/** Before is the tree now, after what the revert brings back: so "added" keys come back. */
const REVERT_LABELS: ChangeLabels = {
  added: 'Brought back',
  changed: 'Changed back',
  removed: 'Removed',
};

/**
 * What a revert would do to the tree now: a revert preview started when the confirmation opens
 * (once per panel), its counts first, then the differences.
 */
export function RevertPreviewPanel({
  restoreOperationId,
  onStarted,
  onStartFailed,
}: {
  restoreOperationId: string;
  /** The preview's operation id once started, so the dialog can read its count of writes. */
  onStarted: (operationId: string) => void;
  /** The server refused to start it (the refusal is shown here). */
  onStartFailed: () => void;
}) {
  const start = useStartRevertPreviewMutation();
  const started = useRef(false);
  useEffect(() => {
    // Once per panel: React's development double effects must not start two previews.
    if (started.current) return;
    started.current = true;
    start.mutate(
      { restoreOperationId },
      { onSuccess: (handle) => onStarted(handle.operationId), onError: onStartFailed },
    );
  }, [start, restoreOperationId, onStarted, onStartFailed]);

  return (
    // Focusable: it scrolls inside the dialog, and keyboard users must reach that too.
    <section
      className="restore-preview revert-preview stack"
      aria-label="Revert preview"
      tabIndex={0}
    >
      <h3 className="restore-preview__title">What the revert would change</h3>
      {start.error && <ErrorBanner title="Could not preview the revert" error={start.error} />}
      {start.isPending && <Spinner label="Starting the preview…" />}
      {start.data && (
        <ComparisonView
          operationId={start.data.operationId}
          title="Revert preview"
          legend="Before: the tree as it is now. After: what it held before the restore, which the revert brings back."
          changeLabels={REVERT_LABELS}
        />
      )}
    </section>
  );
}
