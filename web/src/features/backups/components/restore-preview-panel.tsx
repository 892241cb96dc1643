import type { MessageInitShape } from '@bufbuild/protobuf';
import type { RestorePreviewRequestSchema } from '@store/contract';
import { useEffect, useRef } from 'react';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { useStartRestorePreviewMutation } from '../../../lib/comparisons/use-backup-comparison';
import { ComparisonView } from '../../../components/comparisons/comparison-view';

export interface RestorePreviewPanelProps {
  request: MessageInitShape<typeof RestorePreviewRequestSchema>;
  /** A preview of this same request made before (the dialog went back and forth): shown again. */
  operationId?: string;
  /** The preview's operation id once started, so the restore can check it is still fresh. */
  onStarted: (operationId: string) => void;
}

/**
 * What the restore would do to the tree now (issue 16): a preview started when the confirmation
 * opens (unless this request has one already), its counts first, then the differences. The
 * restore in place waits for it to succeed (restore-guard.ts).
 */
export function RestorePreviewPanel({ request, operationId, onStarted }: RestorePreviewPanelProps) {
  const start = useStartRestorePreviewMutation();
  const started = useRef(false);
  useEffect(() => {
    // Once per panel: React's development double effects must not start two previews.
    if (started.current || operationId) return;
    started.current = true;
    start.mutate(request, { onSuccess: (handle) => onStarted(handle.operationId) });
  }, [start, request, operationId, onStarted]);
  const shown = operationId || start.data?.operationId;

  return (
    // Focusable: it scrolls inside the dialog, and keyboard users must reach that too.
    <section className="restore-preview stack" aria-label="Restore preview" tabIndex={0}>
      <h3 className="restore-preview__title">What the restore would change</h3>
      {start.error && <ErrorBanner title="Could not preview the restore" error={start.error} />}
      {start.isPending && <Spinner label="Starting the preview…" />}
      {shown && (
        <ComparisonView
          operationId={shown}
          title="Restore preview"
          legend="Before: the tree as it is now. After: what the restore would leave."
        />
      )}
    </section>
  );
}
