import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { listSchedulesKey, scopeSchedulesKey } from './use-list-schedules-query';
import { scopeSelector, scopeStatusKey, type ScheduleScope } from './use-scope-status-query';

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
      Promise.all([
        queryClient.invalidateQueries({ queryKey: scopeStatusKey(request.scope) }),
        queryClient.invalidateQueries({ queryKey: listSchedulesKey() }),
        queryClient.invalidateQueries({ queryKey: scopeSchedulesKey(request.scope) }),
      ]),
  });
}
