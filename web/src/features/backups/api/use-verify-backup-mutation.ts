import { useMutation } from '@tanstack/react-query';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { useApi } from '../../../lib/services';

/**
 * "Verify now" on a backup's page: the same tracked health check the health page starts, followed
 * in the tray; its toast says what it found, and the page's verdict refreshes when it ends.
 */
export function useVerifyBackupMutation() {
  const api = useApi();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: (backupId: string) => api.backup.startBackupHealthCheck(backupId),
    meta: { errorTitle: 'Verification not started' },
    onSuccess: (handle) => track(handle),
  });
}
