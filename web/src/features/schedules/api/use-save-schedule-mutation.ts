import type { ScheduleOverview } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { listSchedulesKey, scopeSchedulesKey } from './use-list-schedules-query';
import { scopeSelector, scopeStatusKey, type ScheduleScope } from './use-scope-status-query';

/** One cadence the form registers (new) or changes (another interval). */
export interface CadenceChange {
  incremental: boolean;
  intervalMs: number;
}

/** Everything the schedule form saves at once. */
export interface ScheduleSave {
  scope: ScheduleScope;
  /** Null: no time of day (every interval from registration). */
  anchor: { timeOfDay: string; timeZone: string } | null;
  /** Empty: the default template. */
  nameTemplate: string;
  captureUnchangedIncrementals: boolean;
  cadences: CadenceChange[];
}

/** What was saved: each cadence's effective (maybe clamped) interval and the scope's settings. */
export interface ScheduleSaved {
  cadences: (CadenceChange & { effectiveMs: number })[];
  view: ScheduleOverview | null;
}

/**
 * Saves a scope's schedule in one action: the time of day, names and unchanged-incremental
 * setting first (ConfigureScheduleExtras), then each new or changed cadence (the spec's
 * ScheduleBackup), which starts at the next slot of the time of day just stored; then reads back
 * what the server holds. ScheduleBackup stays the spec's RPC, so this is one action of the form
 * rather than one call.
 */
export function useSaveScheduleMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (save: ScheduleSave): Promise<ScheduleSaved> => {
      const scope = scopeSelector(save.scope);
      await api.backupInsight.configureScheduleExtras({
        scope,
        ...(save.anchor && { anchor: save.anchor }),
        nameTemplate: save.nameTemplate,
        captureUnchangedIncrementals: save.captureUnchangedIncrementals,
      });
      const cadences: ScheduleSaved['cadences'] = [];
      for (const cadence of save.cadences) {
        const effectiveMs = await api.backup.scheduleBackup(
          scope,
          cadence.incremental,
          cadence.intervalMs,
        );
        cadences.push({ ...cadence, effectiveMs });
      }
      const page = await api.backupInsight.listSchedules({ scope });
      return { cadences, view: page.schedules[0] ?? null };
    },
    meta: { errorTitle: 'Schedule not saved' },
    onSettled: (_saved, _error, save) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: scopeStatusKey(save.scope) }),
        queryClient.invalidateQueries({ queryKey: listSchedulesKey() }),
        queryClient.invalidateQueries({ queryKey: scopeSchedulesKey(save.scope) }),
      ]),
  });
}
