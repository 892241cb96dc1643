import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  BackupInsightService,
  RestoreDrillPlanService,
  type SetRestoreDrillPlanRequestSchema,
} from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SchedulePageScope } from '../../../components/schedules/scope-section';
import { methodKey, serviceKey } from '../../../lib/query-keys';
import { useDrillPlanClient } from './use-drill-plan-client';
import { planScopeSelector } from './use-drill-plans-query';

/** After any change: the plans, and the schedules overview that names them. */
function useInvalidatePlans() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: serviceKey(RestoreDrillPlanService) }),
      queryClient.invalidateQueries({
        queryKey: methodKey(BackupInsightService.method.listSchedules),
      }),
    ]);
}

export function useSaveDrillPlanMutation() {
  const client = useDrillPlanClient();
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (request: MessageInitShape<typeof SetRestoreDrillPlanRequestSchema>) =>
      client.setRestoreDrillPlan(request),
    meta: { errorTitle: 'Drill plan not saved' },
    onSuccess: invalidate,
  });
}

export function useDeleteDrillPlanMutation() {
  const client = useDrillPlanClient();
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (ref: { scope: SchedulePageScope; name: string }) =>
      client.deleteRestoreDrillPlan({ scope: planScopeSelector(ref.scope), name: ref.name }),
    meta: { errorTitle: 'Drill plan not deleted' },
    onSuccess: invalidate,
  });
}

export function useRunDrillPlanNowMutation() {
  const client = useDrillPlanClient();
  const invalidate = useInvalidatePlans();
  return useMutation({
    mutationFn: (ref: { scope: SchedulePageScope; name: string }) =>
      client.runRestoreDrillPlanNow({ scope: planScopeSelector(ref.scope), name: ref.name }),
    meta: { errorTitle: 'Drill not started' },
    onSuccess: invalidate,
  });
}
