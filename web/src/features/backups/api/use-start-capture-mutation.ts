import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { paths } from '../../../lib/paths';
import { useApi } from '../../../lib/services';
import type { CaptureRequest } from '../utils/capture-draft';

/**
 * Starts a full, incremental or set capture through the tracked Start* RPC, follows it in the
 * tray and opens its operation page, which updates live until it finishes.
 */
export function useStartCaptureMutation() {
  const api = useApi();
  const track = useTrackOperation();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (capture: CaptureRequest) => {
      switch (capture.kind) {
        case 'full':
          return api.backup.startBackup(capture.request);
        case 'incremental':
          return api.backup.startIncrementalBackup(capture.request);
        case 'set':
          return api.backup.startBackupSet(capture.request);
      }
    },
    // The dialog shows the refusal next to the form.
    meta: { silent: true },
    onSuccess: (handle) => {
      track(handle);
      void navigate(paths.operation(handle.operationId));
    },
  });
}
