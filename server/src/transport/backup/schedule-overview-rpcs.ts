import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ServiceImpl } from '@connectrpc/connect';
import {
  BackupScopeRunOutcome,
  durationFromMs,
  type BackupInsightService,
  type ScheduleOverviewSchema,
} from '@store/contract';
import { formatTimeOfDay } from '../../engines/backup/schedules/next-runs.js';
import type {
  ScheduleOverview,
  ScheduleView,
} from '../../engines/backup/schedules/schedule-overview.js';
import { callScopeOf } from '../call-scope.js';
import { scopeOf } from './backup-mapping.js';

/** The schedules overview as the wire message; no logic beyond field mapping. */
export function toScheduleOverview(
  view: ScheduleView,
): MessageInitShape<typeof ScheduleOverviewSchema> {
  const cadence = (c: NonNullable<ScheduleView['full']>) => ({
    interval: durationFromMs(c.intervalMs),
    nextRunTime: timestampFromMs(c.nextRunAt),
  });
  return {
    scope: {
      treeId: view.treeId,
      ...(view.keyPrefix !== '' && { keyPrefix: view.keyPrefix }),
    },
    ...(view.full && { full: cadence(view.full) }),
    ...(view.incremental && { incremental: cadence(view.incremental) }),
    ...(view.anchor && {
      anchor: {
        timeOfDay: formatTimeOfDay(view.anchor.minuteOfDay),
        timeZone: view.anchor.timeZone,
      },
    }),
    nameTemplate: view.nameTemplate,
    defaultNameTemplate: view.defaultNameTemplate,
    captureUnchangedIncrementals: view.captureUnchangedIncrementals,
    nextRuns: view.nextRuns.map((run) => ({
      runTime: timestampFromMs(run.at),
      incremental: run.kind === 'incremental',
      backupName: run.backupName,
    })),
    ...(view.lastRun && {
      lastRun: {
        runTime: timestampFromMs(view.lastRun.at),
        incremental: view.lastRun.kind === 'incremental',
        outcome: BackupScopeRunOutcome[view.lastRun.outcome],
        reason: view.lastRun.reason,
      },
    }),
    chainDepth: view.chainDepth,
    retentionRules: view.retentionRules,
    protectedCount: view.protectedCount,
    drillPlans: view.drillPlans.map((plan) => ({
      name: plan.name,
      ...(plan.nextRunAt !== null && { nextRunAt: timestampFromMs(plan.nextRunAt) }),
      paused: plan.paused,
      choice: plan.choice,
    })),
  };
}

/** ListSchedules and ConfigureScheduleExtras of BackupInsightService. */
export function scheduleOverviewHandlers(
  overview: ScheduleOverview,
): Pick<ServiceImpl<typeof BackupInsightService>, 'listSchedules' | 'configureScheduleExtras'> {
  return {
    async listSchedules(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await overview.list(
        tenant,
        request.pageSize,
        request.pageToken,
        scopeOf(request.scope),
      );
      return {
        schedules: page.schedules.map(toScheduleOverview),
        nextPageToken: page.nextPageToken,
      };
    },
    async configureScheduleExtras(request, context) {
      const { tenant } = callScopeOf(context);
      const view = await overview.configure(tenant, {
        scope: scopeOf(request.scope),
        anchor: request.anchor && {
          timeOfDay: request.anchor.timeOfDay,
          timeZone: request.anchor.timeZone,
        },
        nameTemplate: request.nameTemplate,
        captureUnchangedIncrementals: request.captureUnchangedIncrementals,
      });
      return toScheduleOverview(view);
    },
  };
}
