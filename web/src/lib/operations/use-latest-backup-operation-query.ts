import { BackupControlService, type StoreOperationKind } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { listPollInterval } from '../polling';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

/**
 * The newest backup-service operation of one kind (optionally on one target), e.g. the last
 * catalog scrub or the last health check of a backup, for pages that show "the latest run" and
 * its result. One small list request per tick: fast while it runs, slow once finished, paused
 * while the tab is hidden (lib/polling).
 */
export function useLatestBackupOperationQuery(kind: StoreOperationKind, targetId?: string) {
  const api = useApi();
  const request = { pageSize: 1, kinds: [kind], ...(targetId !== undefined && { targetId }) };
  return useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackupOperations, request),
    queryFn: ({ signal }) => api.backup.listBackupOperations(request, { signal }),
    enabled: targetId === undefined || targetId !== '',
    select: (page) => page.operations[0] ?? null,
    refetchInterval: (query) => listPollInterval(query.state.data?.operations),
    refetchIntervalInBackground: false,
  });
}
