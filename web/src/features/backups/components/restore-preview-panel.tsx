import type { MessageInitShape } from '@bufbuild/protobuf';
import type { RestorePreviewRequestSchema } from '@store/contract';
import { useEffect, useRef } from 'react';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { useStartRestorePreviewMutation } from '../../../lib/comparisons/use-backup-comparison';
import { ComparisonView } from '../../../components/comparisons/comparison-view';

export interface RestorePreviewPanelProps {
  request: MessageInitShape<typeof RestorePreviewRequestSchema>;
  /** The preview's operation id once started, so the restore can check it is still fresh. */
  onStarted: (operationId: string) => void;
}

/**
 * What the restore would do to the tree now (issue 16): a preview started when the confirmation
 * opens, its counts first, then the differences. It changes nothing, so the restore can go ahead
 * without waiting for it.
 */
export function RestorePreviewPanel({ request, onStarted }: RestorePreviewPanelProps) {
  const start = useStartRestorePreviewMutation();
  const started = useRef(false);
  useEffect(() => {
    // Once per panel: React's development double effects must not start two previews.
    if (started.current) return;
    started.current = true;
    start.mutate(request, { onSuccess: (handle) => onStarted(handle.operationId) });
  }, [start, request, onStarted]);

  return (
    // Focusable: it scrolls inside the dialog, and keyboard users must reach that too.
    <section className="restore-preview stack" aria-label="Restore preview" tabIndex={0}>
      <h3 className="restore-preview__title">What the restore would change</h3>
      {start.error && <ErrorBanner title="Could not preview the restore" error={start.error} />}
      {start.isPending && <Spinner label="Starting the preview…" />}
      {start.data && (
        <ComparisonView
          operationId={start.data.operationId}
          title="Restore preview"
          legend="Before: the tree as it is now. After: what the restore would leave."
        />
      )}
    </section>
  );
}
