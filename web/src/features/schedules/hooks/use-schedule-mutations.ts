import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { scopeStatusKey } from './use-scope-status-query';

export interface ScheduleRequest {
  treeId: string;
  incremental: boolean;
  intervalMs: number;
}

/** What ScheduleBackup registered: the requested and the effective (possibly clamped) interval. */
export interface ScheduleOutcome extends ScheduleRequest {
  effectiveMs: number;
}

/** Registers (or replaces) a full or incremental schedule; the scope status refreshes. */
export function useScheduleBackupMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ScheduleRequest): Promise<ScheduleOutcome> => {
      const effectiveMs = await api.backup.scheduleBackup(
        { treeId: request.treeId },
        request.incremental,
        request.intervalMs,
      );
      return { ...request, effectiveMs };
    },
    meta: { errorTitle: 'Schedule not registered' },
    onSuccess: (outcome) =>
      queryClient.invalidateQueries({ queryKey: scopeStatusKey(outcome.treeId) }),
  });
}

/** Removes a full or incremental schedule (idempotent on the server). */
export function useCancelScheduleMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: { treeId: string; incremental: boolean }) => {
      await api.backup.cancelSchedule({ treeId: request.treeId }, request.incremental);
      return request;
    },
    meta: { errorTitle: 'Schedule not cancelled' },
    onSuccess: (request) =>
      queryClient.invalidateQueries({ queryKey: scopeStatusKey(request.treeId) }),
  });
}
