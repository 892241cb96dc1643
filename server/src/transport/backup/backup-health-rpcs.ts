import type { ServiceImpl } from '@connectrpc/connect';
import {
  BackupScopeRunOutcome,
  type BackupControlService,
  type durationToMs,
} from '@store/contract';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { BackupEngine } from '../../engines/backup/backup-engine.js';
import { callScopeOf } from '../call-scope.js';
import { toHandle } from '../operations/operation-mapping.js';
import { starter } from './backup-capture-rpcs.js';
import { durationFromMs, healthReportToProto, scopeOf } from './backup-mapping.js';

type Impl = Partial<ServiceImpl<typeof BackupControlService>>;

const optionalTime = (ms: number | null) => (ms === null ? undefined : timestampFromMs(ms));
const optionalDuration = (ms: number | null) => (ms === null ? undefined : durationFromMs(ms));

/** A wire duration in ms; undefined when absent (the engine answers InvalidArgument). */
function intervalMs(duration: Parameters<typeof durationToMs>[0]): number | undefined {
  if (!duration) return undefined;
  return Number(duration.seconds) * 1000 + duration.nanos / 1_000_000;
}

/** Schedules, scope status and health RPCs. */
export function scheduleAndHealthRpcs(engine: BackupEngine): Impl {
  return {
    async scheduleBackup(request, context) {
      const { tenant } = callScopeOf(context);
      const effective = await engine.schedules.schedule(
        tenant,
        scopeOf(request.scope) ?? { treeId: '' },
        request.incremental,
        intervalMs(request.interval),
      );
      return { scheduled: true, effectiveInterval: durationFromMs(effective) };
    },
    async cancelSchedule(request, context) {
      const { tenant } = callScopeOf(context);
      await engine.schedules.cancel(
        tenant,
        scopeOf(request.scope) ?? { treeId: '' },
        request.incremental,
      );
      return {};
    },
    async getScopeStatus(request, context) {
      const { tenant } = callScopeOf(context);
      const s = await engine.schedules.status(tenant, scopeOf(request.scope) ?? { treeId: '' });
      if (!s.found) return { found: false };
      return {
        found: true,
        scope: { treeId: s.treeId, keyPrefix: s.keyPrefix === '' ? undefined : s.keyPrefix },
        fullScheduleRegistered: s.fullScheduleRegistered,
        incrementalScheduleRegistered: s.incrementalScheduleRegistered,
        lastFullRunUtc: optionalTime(s.lastFullRunAt),
        lastFullSuccessUtc: optionalTime(s.lastFullSuccessAt),
        lastIncrementalRunUtc: optionalTime(s.lastIncrementalRunAt),
        lastIncrementalSuccessUtc: optionalTime(s.lastIncrementalSuccessAt),
        lastRunOutcome: BackupScopeRunOutcome[s.lastRunOutcome],
        chainDepth: s.chainDepth,
        runtimeFullBackupInterval: optionalDuration(s.fullIntervalMs),
        runtimeIncrementalBackupInterval: optionalDuration(s.incrementalIntervalMs),
      };
    },
    isHealthMonitoringAvailable() {
      return { available: engine.healthMonitoringAvailable };
    },
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- serving the obsolete RPC
    async checkBackupHealth(request, context) {
      const { tenant } = callScopeOf(context);
      // DESIGN.md §3: the obsolete form ignores tracking_operation_id and runs now.
      const report = await engine.checkHealthNow(tenant, request.backupId);
      const stored = await engine.getHealth(tenant, request.backupId);
      return {
        found: true,
        report: healthReportToProto(report),
        config: stored?.config && {
          monitoringEnabled: stored.config.monitoringEnabled,
          interval: durationFromMs(stored.config.intervalMs),
        },
      };
    },
    async getBackupHealth(request, context) {
      const { tenant } = callScopeOf(context);
      const stored = await engine.getHealth(tenant, request.backupId);
      const config = stored?.config && {
        monitoringEnabled: stored.config.monitoringEnabled,
        interval: durationFromMs(stored.config.intervalMs),
      };
      if (!stored?.report) return { found: false, config };
      return { found: true, report: healthReportToProto(stored.report), config };
    },
    async configureBackupHealth(request, context) {
      const { tenant } = callScopeOf(context);
      await engine.configureHealth(
        tenant,
        request.backupId,
        request.monitoringEnabled,
        intervalMs(request.interval),
      );
      return {};
    },
  };
}

/** Tracked health check and catalog maintenance. */
export function trackedMaintenanceRpcs(engine: BackupEngine): Impl {
  return {
    async startBackupHealthCheck(request, context) {
      const who = starter(context, request.trackingOperationId);
      return toHandle(await engine.startHealthCheck(who, request.backupId));
    },
    async startCatalogRebuild(request, context) {
      return toHandle(await engine.startRebuild(starter(context, request.trackingOperationId)));
    },
    async startCatalogScrub(request, context) {
      const who = starter(context, request.trackingOperationId);
      return toHandle(await engine.startScrub(who, request.pruneOrphans));
    },
  };
}
