import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { listSchedulesKey, scopeSchedulesKey } from './use-list-schedules-query';
import { scopeSelector, type ScheduleScope } from './use-scope-status-query';

export interface ScheduleExtras {
  scope: ScheduleScope;
  /** Null: no anchor (every interval from registration). */
  anchor: { timeOfDay: string; timeZone: string } | null;
  /** Empty: the default template. */
  nameTemplate: string;
  captureUnchangedIncrementals: boolean;
}

/** ConfigureScheduleExtras: a scope's anchor, name template and unchanged-incremental setting. */
export function useScheduleExtrasMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (extras: ScheduleExtras) =>
      api.backupInsight.configureScheduleExtras({
        scope: scopeSelector(extras.scope),
        ...(extras.anchor && { anchor: extras.anchor }),
        nameTemplate: extras.nameTemplate,
        captureUnchangedIncrementals: extras.captureUnchangedIncrementals,
      }),
    meta: { errorTitle: 'Schedule settings not saved' },
    onSuccess: (_view, extras) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listSchedulesKey() }),
        queryClient.invalidateQueries({ queryKey: scopeSchedulesKey(extras.scope) }),
      ]),
  });
}
