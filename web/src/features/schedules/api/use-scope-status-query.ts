import { BackupControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** A schedule's scope: a tree and a key prefix ('' for the whole tree). */
export interface ScheduleScope {
  treeId: string;
  keyPrefix: string;
}

/** The scope as the wire selector takes it: no key prefix for the whole tree. */
export function scopeSelector(scope: ScheduleScope) {
  return scope.keyPrefix === ''
    ? { treeId: scope.treeId }
    : { treeId: scope.treeId, keyPrefix: scope.keyPrefix };
}

/** The query key of a scope's status (schedules are per scope: tree + key prefix). */
export function scopeStatusKey(scope: ScheduleScope) {
  return rpcKey(BackupControlService.method.getScopeStatus, { scope: scopeSelector(scope) });
}

/**
 * GetScopeStatus of a scope: null when the server does not know it (found = false). Slow
 * polling keeps "last run" current while the page is open; schedules fire at most every minute.
 */
export function useScopeStatusQuery(scope: ScheduleScope) {
  const api = useApi();
  return useQuery({
    queryKey: scopeStatusKey(scope),
    queryFn: ({ signal }) => api.backup.getScopeStatus(scopeSelector(scope), { signal }),
    enabled: scope.treeId !== '',
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
  });
}
