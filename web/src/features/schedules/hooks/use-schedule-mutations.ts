import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { scopeSelector, scopeStatusKey, type ScheduleScope } from './use-scope-status-query';

export interface ScheduleRequest {
  scope: ScheduleScope;
  incremental: boolean;
  intervalMs: number;
}

/** What ScheduleBackup registered: the requested and the effective (possibly clamped) interval. */
export interface ScheduleOutcome extends ScheduleRequest {
  effectiveMs: number;
}

/** Registers (or replaces) a scope's full or incremental schedule; its status refreshes. */
export function useScheduleBackupMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: ScheduleRequest): Promise<ScheduleOutcome> => {
      const effectiveMs = await api.backup.scheduleBackup(
        scopeSelector(request.scope),
        request.incremental,
        request.intervalMs,
      );
      return { ...request, effectiveMs };
    },
    meta: { errorTitle: 'Schedule not registered' },
    onSuccess: (outcome) =>
      queryClient.invalidateQueries({ queryKey: scopeStatusKey(outcome.scope) }),
  });
}

/** Removes a scope's full or incremental schedule, and only that scope's (idempotent). */
export function useCancelScheduleMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: { scope: ScheduleScope; incremental: boolean }) => {
      await api.backup.cancelSchedule(scopeSelector(request.scope), request.incremental);
      return request;
    },
    meta: { errorTitle: 'Schedule not cancelled' },
    onSuccess: (request) =>
      queryClient.invalidateQueries({ queryKey: scopeStatusKey(request.scope) }),
  });
}
