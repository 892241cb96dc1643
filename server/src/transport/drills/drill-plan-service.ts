import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  DrillPlanBackupChoice,
  DrillPlanRunOutcome,
  RestoreDrillPlanService,
  durationFromMs,
  durationToMs,
  type RestoreDrillPlanSchema,
} from '@store/contract';
import type {
  DrillPlanChoice,
  DrillPlans,
  DrillPlanView,
  PlanRunOutcome,
} from '../../engines/backup/drills/drill-plans.js';
import { formatTimeOfDay } from '../../engines/backup/schedules/next-runs.js';
import { scopeOf } from '../backup/backup-mapping.js';
import { callScopeOf } from '../call-scope.js';
import { scopeSelector } from '../lifecycle/retention-apply-mapping.js';
import { toHandle } from '../operations/operation-mapping.js';
import { addGuardedApi, type StoreApiHost, type StoreApiSetup } from '../store-api-host.js';
import { RESTORE_DRILL_PLAN_SERVICE } from './drill-plan-access.js';

const CHOICES: Record<DrillPlanChoice, DrillPlanBackupChoice> = {
  NEWEST: DrillPlanBackupChoice.NEWEST,
  RANDOM_WITHIN_WINDOW: DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW,
  EACH_NEW_FULL: DrillPlanBackupChoice.EACH_NEW_FULL,
};

const OUTCOMES: Record<PlanRunOutcome, DrillPlanRunOutcome> = {
  RUNNING: DrillPlanRunOutcome.RUNNING,
  PROVEN: DrillPlanRunOutcome.PROVEN,
  FAILED: DrillPlanRunOutcome.FAILED,
  SKIPPED: DrillPlanRunOutcome.SKIPPED,
  DID_NOT_FINISH: DrillPlanRunOutcome.DID_NOT_FINISH,
};

function choiceOf(choice: DrillPlanBackupChoice): DrillPlanChoice | undefined {
  return (Object.keys(CHOICES) as DrillPlanChoice[]).find((name) => CHOICES[name] === choice);
}

/** A plan as the wire message; no logic beyond field mapping. */
function toPlan(view: DrillPlanView): MessageInitShape<typeof RestoreDrillPlanSchema> {
  const last = view.lastRunView;
  return {
    scope: scopeSelector(view.treeName, view.keyPrefix),
    name: view.name,
    ...(view.intervalMs !== null && {
      cadence: {
        interval: durationFromMs(view.intervalMs),
        timeOfDay: view.anchor ? formatTimeOfDay(view.anchor.minuteOfDay) : '',
        timeZone: view.anchor?.timeZone ?? '',
      },
    }),
    choice: CHOICES[view.choice],
    ...(view.windowMs !== null && { window: durationFromMs(view.windowMs) }),
    maxEntriesPerSecond: view.maxEntriesPerSecond,
    paused: view.paused,
    ...(view.nextRunAt !== null && { nextRunAt: timestampFromMs(view.nextRunAt) }),
    ...(last && {
      lastRun: {
        runAt: timestampFromMs(last.at),
        ...(last.operationId !== null && { operationId: last.operationId }),
        backupId: last.backupId,
        outcome: OUTCOMES[last.outcome],
        reason: last.reason,
        startedBy: last.startedBy,
      },
    }),
    updatedAt: timestampFromMs(view.updatedAt),
  };
}

/** RestoreDrillPlanService: set, read, list, delete and run restore drill plans. */
export function registerRestoreDrillPlanService(
  router: ConnectRouter,
  plans: DrillPlans | undefined,
): void {
  if (!plans) {
    router.service(RestoreDrillPlanService, {});
    return;
  }
  router.service(RestoreDrillPlanService, {
    async setRestoreDrillPlan(request, context) {
      const { tenant } = callScopeOf(context);
      const cadence = request.cadence;
      const view = await plans.set(tenant, {
        scope: scopeOf(request.scope),
        name: request.name,
        cadence: cadence && {
          intervalMs: durationToMs(cadence.interval),
          timeOfDay: cadence.timeOfDay,
          timeZone: cadence.timeZone,
        },
        choice: choiceOf(request.choice),
        windowMs: durationToMs(request.window),
        maxEntriesPerSecond: request.maxEntriesPerSecond,
        paused: request.paused,
      });
      return toPlan(view);
    },
    async getRestoreDrillPlan(request, context) {
      const { tenant } = callScopeOf(context);
      return toPlan(await plans.get(tenant, { scope: scopeOf(request.scope), name: request.name }));
    },
    async listRestoreDrillPlans(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await plans.list(tenant, {
        scope: scopeOf(request.scope),
        pageSize: request.pageSize,
        pageToken: request.pageToken,
      });
      return { plans: page.plans.map(toPlan), nextPageToken: page.nextPageToken };
    },
    async deleteRestoreDrillPlan(request, context) {
      const { tenant } = callScopeOf(context);
      const result = await plans.delete(tenant, {
        scope: scopeOf(request.scope),
        name: request.name,
      });
      return { removed: result.removed, drillsKept: BigInt(result.drillsKept) };
    },
    async runRestoreDrillPlanNow(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const op = await plans.runNow(
        { tenant, createdBy: caller.subject, trackingId: request.trackingOperationId },
        { scope: scopeOf(request.scope), name: request.name },
      );
      return toHandle(op);
    },
  });
}

/** Adds RestoreDrillPlanService with the same interceptor, authorizer and access gate. */
export function addRestoreDrillPlanApi(
  host: StoreApiHost,
  plans: DrillPlans | undefined,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  return addGuardedApi(
    host,
    RESTORE_DRILL_PLAN_SERVICE,
    (router) => registerRestoreDrillPlanService(router, plans),
    configure,
  );
}
