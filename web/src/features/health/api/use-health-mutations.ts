import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { useApi } from '../../../lib/services';
import { storedHealthKey } from './use-health-queries';

/** "Check now": a tracked health check, followed in the tray and on the page. */
export function useStartHealthCheckMutation() {
  const api = useApi();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: (backupId: string) => api.backup.startBackupHealthCheck(backupId),
    meta: { errorTitle: 'Health check not started' },
    onSuccess: (handle) => track(handle),
  });
}

export interface MonitoringRequest {
  backupId: string;
  enabled: boolean;
  /** 0 when disabling without an interval. */
  intervalMs: number;
}

/** ConfigureBackupHealth, then the stored config is read back (the server may clamp it). */
export function useConfigureMonitoringMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: MonitoringRequest) => {
      await api.backup.configureBackupHealth(request.backupId, {
        monitoringEnabled: request.enabled,
        intervalMs: request.intervalMs,
      });
      return request;
    },
    meta: { errorTitle: 'Monitoring not configured' },
    onSuccess: (request) =>
      queryClient.invalidateQueries({ queryKey: storedHealthKey(request.backupId) }),
  });
}
