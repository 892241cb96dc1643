import { BackupControlService } from '@store/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { firstTreesPageQuery } from '../../../lib/trees/first-trees-page-query';

/** Scope status is one call per tree (there is no list form); beyond this many, the view says so. */
export const MAX_SCOPE_CHECKS = 100;

/** The tenant's trees with their dead-letter counts: one ListTrees page. */
export function useTreesOverview() {
  const api = useApi();
  return useQuery({
    ...firstTreesPageQuery(api),
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

/**
 * GetScopeStatus of each tree (whole-tree scope), for schedules that missed their runs. The
 * backup API has no list of schedules, so this is one call per tree, capped and slow-polled.
 */
export function useScopeStatuses(treeIds: readonly string[]) {
  const api = useApi();
  const checked = treeIds.slice(0, MAX_SCOPE_CHECKS);
  const queries = useQueries({
    queries: checked.map((treeId) => ({
      queryKey: rpcKey(BackupControlService.method.getScopeStatus, { scope: { treeId } }),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api.backup.getScopeStatus({ treeId }, { signal }),
      refetchInterval: SLOW_POLL_MS,
      refetchIntervalInBackground: false,
      staleTime: 30_000,
    })),
  });
  return {
    statuses: queries.flatMap((query) => (query.data ? [query.data] : [])),
    isPending: queries.some((query) => query.isPending),
    error: queries.find((query) => query.error)?.error ?? null,
    skipped: treeIds.length - checked.length,
  };
}
