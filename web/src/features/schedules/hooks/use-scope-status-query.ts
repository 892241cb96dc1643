import { BackupControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** The scope key of a tree (schedules here are per tree, without a key prefix). */
export function scopeStatusKey(treeId: string) {
  return rpcKey(BackupControlService.method.getScopeStatus, { scope: { treeId } });
}

/**
 * GetScopeStatus of a tree: null when the server does not know the tree (found = false). Slow
 * polling keeps "last run" current while the page is open; schedules fire at most every minute.
 */
export function useScopeStatusQuery(treeId: string) {
  const api = useApi();
  return useQuery({
    queryKey: scopeStatusKey(treeId),
    queryFn: ({ signal }) => api.backup.getScopeStatus({ treeId }, { signal }),
    enabled: treeId !== '',
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
  });
}
