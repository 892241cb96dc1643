import { BackupControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { fetchStoredHealth } from './backup-health';

/** Whether the server offers health monitoring at all (a deployment setting). */
export function useHealthAvailabilityQuery() {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(BackupControlService.method.isHealthMonitoringAvailable, {}),
    queryFn: ({ signal }) => api.backup.isHealthMonitoringAvailable({ signal }),
    staleTime: 60_000,
  });
}

/**
 * The key of a backup's stored health. The extra element keeps it apart from any other page's
 * GetBackupHealth query (whose data may be the report alone) while service-wide invalidation,
 * which matches by prefix, still reaches it.
 */
export function storedHealthKey(backupId: string) {
  return [...rpcKey(BackupControlService.method.getBackupHealth, { backupId }), 'with-config'];
}

/** The stored report and monitoring config of one backup. */
export function useStoredHealthQuery(backupId: string) {
  const api = useApi();
  return useQuery({
    queryKey: storedHealthKey(backupId),
    queryFn: ({ signal }) => fetchStoredHealth(api, backupId, signal),
    enabled: backupId !== '',
  });
}
