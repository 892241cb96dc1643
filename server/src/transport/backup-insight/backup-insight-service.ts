import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import {
  BackupComparisonKind,
  BackupDifferenceChange,
  BackupInsightService,
  durationToMs,
  type BackupComparisonReportSchema,
  type BackupComparisonResponseSchema,
  type BackupDifferenceSchema,
} from '@store/contract';
import type { BackupComparisons } from '../../engines/backup/insight/backup-comparisons.js';
import type {
  ComparisonReport,
  ComparisonView,
} from '../../engines/backup/insight/comparison-types.js';
import type { ScheduleOverview } from '../../engines/backup/schedules/schedule-overview.js';
import { StoreError, invalidArgument } from '../../engines/errors.js';
import { roleCovers } from '../../engines/identity/principal.js';
import { BACKUP_INSIGHT_OPERATION_KINDS } from '../../engines/operation-kinds.js';
import type {
  DifferenceChange,
  StoredDifference,
} from '../../engines/backup/insight/comparison-types.js';
import { BACKUP_INSIGHT_SERVICE } from './backup-insight-access.js';
import { mapStaleHealthCheckResult, toCatalogSummary } from '../backup/fleet-health-mapping.js';
import { scopeOf } from '../backup/backup-mapping.js';
import { scheduleOverviewHandlers } from '../backup/schedule-overview-rpcs.js';
import { callScopeOf } from '../call-scope.js';
import { toHandle, type ResultMapper } from '../operations/operation-mapping.js';
import type { OperationsFacade } from '../operations/operations-facade.js';
import { operationQueries } from '../operations/operation-queries.js';
import { addGuardedApi, type StoreApiHost, type StoreApiSetup } from '../store-api-host.js';

export interface BackupInsightBindingFacades {
  /** The comparisons engine; without it (or the operations facade) every RPC is Unimplemented. */
  insight?: BackupComparisons | undefined;
  operations?: OperationsFacade | undefined;
  /** The schedules overview; without it ListSchedules and ConfigureScheduleExtras are Unimplemented. */
  schedules?: ScheduleOverview | undefined;
  resultMappers: Readonly<Record<string, ResultMapper>>;
}

const CHANGE_NAMES: Record<DifferenceChange, BackupDifferenceChange> = {
  ADDED: BackupDifferenceChange.ADDED,
  CHANGED: BackupDifferenceChange.CHANGED,
  REMOVED: BackupDifferenceChange.REMOVED,
};

function changeFilter(changes: readonly BackupDifferenceChange[]): DifferenceChange[] {
  return changes.map((change, index) => {
    const name = (Object.keys(CHANGE_NAMES) as DifferenceChange[]).find(
      (n) => CHANGE_NAMES[n] === change,
    );
    if (!name) throw invalidArgument(`changes[${index}]`, `${change} is not a difference change`);
    return name;
  });
}

function toDifference(d: StoredDifference): MessageInitShape<typeof BackupDifferenceSchema> {
  return {
    key: d.key,
    change: CHANGE_NAMES[d.change],
    ...(d.beforeJson !== null && { beforeJson: d.beforeJson }),
    ...(d.afterJson !== null && { afterJson: d.afterJson }),
    beforeSchemaVersion: d.beforeSchemaVersion,
    afterSchemaVersion: d.afterSchemaVersion,
  };
}

const KIND_NAMES: Record<ComparisonReport['kind'], BackupComparisonKind> = {
  RESTORE_PREVIEW: BackupComparisonKind.RESTORE_PREVIEW,
  BACKUP_DIFF: BackupComparisonKind.BACKUP_DIFF,
  REVERT_PREVIEW: BackupComparisonKind.REVERT_PREVIEW,
};

function toReport(report: ComparisonReport): MessageInitShape<typeof BackupComparisonReportSchema> {
  return {
    operationId: report.operationId,
    kind: KIND_NAMES[report.kind],
    treeId: report.treeId,
    keyPrefix: report.keyPrefix,
    fromChain: report.fromChain,
    toChain: report.toChain,
    counts: {
      added: BigInt(report.counts.added),
      changed: BigInt(report.counts.changed),
      removed: BigInt(report.counts.removed),
      unchanged: BigInt(report.counts.unchanged),
    },
    treeSequence: BigInt(report.treeSequence),
    comparedAt: timestampFromMs(report.comparedAt),
    restoreOperationId: report.restoreOperationId ?? '',
    writesSinceRestore: BigInt(report.writesSinceRestore ?? 0),
  };
}

function toComparisonResponse(
  view: ComparisonView | undefined,
): MessageInitShape<typeof BackupComparisonResponseSchema> {
  if (!view?.report) return {};
  const storage = view.storage;
  return {
    report: toReport(view.report),
    treeChanged: view.treeChanged,
    currentTreeSequence: BigInt(view.currentTreeSequence),
    ...(storage && {
      storage: {
        stored: BigInt(storage.stored),
        truncated: storage.truncated,
        ...(storage.expiresAt !== null && { expiresAt: timestampFromMs(storage.expiresAt) }),
        kept: storage.kept,
        expired: storage.expired,
        storedBytes: BigInt(storage.storedBytes),
      },
    }),
  };
}

/**
 * Whether the caller may read the values of a comparison's differences: the role of
 * ExportArtifact (operator), since the differences of a preview are a copy of a backup's values
 * (docs/security.md, "Preview storage"). Viewers still get keys, changes and counts.
 */
function mayReadValues(context: HandlerContext): boolean {
  const { caller, tenant } = callScopeOf(context);
  return roleCovers(caller.grants.get(tenant) ?? [], 'operator');
}

function starter(context: HandlerContext, trackingId: string | undefined) {
  const { caller, tenant } = callScopeOf(context);
  return { tenant, createdBy: caller.subject, trackingId };
}

/** BackupInsightService: restore previews, backup diffs and revert previews. */
export function registerBackupInsightService(
  router: ConnectRouter,
  facades: BackupInsightBindingFacades,
): void {
  const { insight, operations } = facades;
  const resultMappers = { ...facades.resultMappers, STALE_HEALTH_CHECK: mapStaleHealthCheckResult };
  const family = BACKUP_INSIGHT_OPERATION_KINDS;
  const scheduleHandlers = facades.schedules ? scheduleOverviewHandlers(facades.schedules) : {};
  if (!insight || !operations) {
    router.service(BackupInsightService, scheduleHandlers);
    return;
  }
  const queries = operationQueries(operations, family, resultMappers);
  router.service(BackupInsightService, {
    ...scheduleHandlers,
    async startRestorePreview(request, context) {
      const who = starter(context, request.trackingOperationId);
      const op = await insight.startPreview(who, {
        backupId: request.backupId,
        targetTreeId: request.targetTreeId,
        scope: scopeOf(request.scope),
        cold: request.cold,
      });
      return toHandle(op);
    },
    async startBackupDiff(request, context) {
      const who = starter(context, request.trackingOperationId);
      const op = await insight.startDiff(who, {
        fromBackupId: request.fromBackupId,
        toBackupId: request.toBackupId,
        scope: scopeOf(request.scope),
      });
      return toHandle(op);
    },
    async startRevertPreview(request, context) {
      const who = starter(context, request.trackingOperationId);
      const op = await insight.startRevertPreview(who, {
        restoreOperationId: request.restoreOperationId,
      });
      return toHandle(op);
    },
    async getBackupComparison(request, context) {
      const { tenant } = callScopeOf(context);
      const view = request.operationId
        ? await insight.view(tenant, request.operationId)
        : undefined;
      return toComparisonResponse(view);
    },
    async keepBackupComparison(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const view = await insight.keep(tenant, request.operationId, {
        by: caller.subject,
        release: request.release,
      });
      return toComparisonResponse(view);
    },
    async listBackupDifferences(request, context) {
      const { tenant } = callScopeOf(context);
      const withValues = mayReadValues(context);
      const page = await insight.listDifferences(tenant, request.operationId, {
        pageSize: request.pageSize,
        pageToken: request.pageToken,
        changes: changeFilter(request.changes),
        withValues,
      });
      return {
        differences: page.differences.map(toDifference),
        nextPageToken: page.nextPageToken,
        truncated: page.truncated,
        storedCount: BigInt(page.storedCount),
        totalCount: BigInt(page.totalCount),
        valuesWithheld: !withValues,
      };
    },
    getBackupInsightOperationStatus: queries.status,
    listBackupInsightOperations: queries.list,
    async cancelBackupInsightOperation(request, context) {
      const { tenant, caller } = callScopeOf(context);
      // Previews and diffs are a viewer's to cancel; a stale health check needs its starter's role.
      const target = await operations.get(tenant, request.operationId, family);
      if (
        target?.kind === 'STALE_HEALTH_CHECK' &&
        !roleCovers(caller.grants.get(tenant) ?? [], 'operator')
      ) {
        throw new StoreError(
          'permission_denied',
          'cancelling a stale health check needs the operator role',
        );
      }
      return queries.cancel(request, context);
    },
    async getCatalogSummary(request, context) {
      const { tenant } = callScopeOf(context);
      const staleAfterMs = request.staleAfter ? durationToMs(request.staleAfter) : 0;
      return toCatalogSummary(await insight.fleet.summary(tenant, staleAfterMs));
    },
    async startStaleHealthCheck(request, context) {
      const who = starter(context, request.trackingOperationId);
      const op = await insight.fleet.startStaleCheck(who, {
        olderThanMs: request.olderThan ? durationToMs(request.olderThan) : undefined,
        treeId: request.treeId,
      });
      return toHandle(op);
    },
  });
}

/** Adds BackupInsightService with the same interceptor, authorizer and access gate. */
export function addBackupInsightApi(
  host: StoreApiHost,
  facades: BackupInsightBindingFacades,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  return addGuardedApi(
    host,
    BACKUP_INSIGHT_SERVICE,
    (router) => registerBackupInsightService(router, facades),
    configure,
  );
}
