import { BackupInsightService, type ScheduleOverview } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { scopeSelector, type ScheduleScope } from './use-scope-status-query';

/** Every scope with a registered schedule, in one page (a tenant has far fewer than 1000). */
const OVERVIEW_PAGE = { pageSize: 1000 } as const;

/** The query key of the schedules overview. */
export function listSchedulesKey() {
  return rpcKey(BackupInsightService.method.listSchedules, OVERVIEW_PAGE);
}

/** The query key of one scope's schedule settings. */
export function scopeSchedulesKey(scope: ScheduleScope) {
  return rpcKey(BackupInsightService.method.listSchedules, { scope: scopeSelector(scope) });
}

/**
 * ListSchedules: every schedule of the tenant with its next runs. Slow polling keeps "next run"
 * and "last run" current while the page is open; schedules fire at most every minute.
 */
export function useListSchedulesQuery() {
  const api = useApi();
  return useQuery({
    queryKey: listSchedulesKey(),
    queryFn: async ({ signal }) => {
      const page = await api.backupInsight.listSchedules(OVERVIEW_PAGE, { signal });
      return { schedules: page.schedules, truncated: page.nextPageToken !== '' };
    },
    refetchInterval: 15_000,
    refetchIntervalInBackground: false,
  });
}

/** One scope's settings (anchor, name template), also with no schedule registered; null: none. */
export function useScopeSchedulesQuery(scope: ScheduleScope) {
  const api = useApi();
  return useQuery({
    queryKey: scopeSchedulesKey(scope),
    queryFn: async ({ signal }): Promise<ScheduleOverview | null> => {
      const page = await api.backupInsight.listSchedules(
        { scope: scopeSelector(scope) },
        { signal },
      );
      return page.schedules[0] ?? null;
    },
    enabled: scope.treeId !== '',
  });
}
