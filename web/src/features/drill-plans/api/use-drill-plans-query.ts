import {
  DrillPlanRunOutcome,
  RestoreDrillPlanService,
  type RestoreDrillPlan,
} from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import type { SchedulePageScope } from '../../../components/schedules/scope-section';
import { rpcKey } from '../../../lib/query-keys';
import { useDrillPlanClient } from './use-drill-plan-client';

/** The wire selector of a scope: no key prefix for the whole tree. */
export function planScopeSelector(scope: SchedulePageScope) {
  return { treeId: scope.treeId, ...(scope.keyPrefix !== '' && { keyPrefix: scope.keyPrefix }) };
}

/** A scope's plans, one page (a scope has a handful). */
export function scopeDrillPlansKey(scope: SchedulePageScope) {
  return rpcKey(RestoreDrillPlanService.method.listRestoreDrillPlans, {
    scope: planScopeSelector(scope),
    pageSize: 1000,
  });
}

/**
 * ListRestoreDrillPlans of one scope. Polled while a plan's drill runs, so its last run turns
 * from Running to Proven or Failed without a reload; slowly otherwise.
 */
export function useScopeDrillPlansQuery(scope: SchedulePageScope) {
  const client = useDrillPlanClient();
  return useQuery({
    queryKey: scopeDrillPlansKey(scope),
    queryFn: async ({ signal }): Promise<RestoreDrillPlan[]> =>
      (
        await client.listRestoreDrillPlans(
          { scope: planScopeSelector(scope), pageSize: 1000 },
          { signal },
        )
      ).plans,
    refetchInterval: (query) =>
      query.state.data?.some((plan) => plan.lastRun?.outcome === DrillPlanRunOutcome.RUNNING)
        ? 2_000
        : 15_000,
    refetchIntervalInBackground: false,
  });
}
