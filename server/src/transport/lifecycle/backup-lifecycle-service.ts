import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import {
  BackupHealthStatus,
  BackupKind,
  BackupLifecycleService,
  KeepReasonKind,
  RetentionAction,
  durationFromMs,
  durationToMs,
  type BackupProtectionSchema,
  type RetentionRules as WireRules,
  type RetentionRulesResponseSchema,
  type RetentionRulesSchema,
} from '@store/contract';
import type {
  BackupLifecycle,
  ScopeRules,
} from '../../engines/backup/lifecycle/backup-lifecycle.js';
import { scopeKeyOf } from '../../engines/backup/lifecycle/backup-lifecycle.js';
import type { RetentionApplyResult } from '../../engines/backup/lifecycle/retention-apply.js';
import type { KeepReasonKind as EngineReasonKind } from '../../engines/backup/lifecycle/retention-plan.js';
import type { RetentionPreview } from '../../engines/backup/lifecycle/retention-preview.js';
import type { RetentionRules } from '../../engines/backup/lifecycle/retention-rules.js';
import { BACKUP_LIFECYCLE_OPERATION_KINDS } from '../../engines/operation-kinds.js';
import type { Protection } from '../../engines/backup/lifecycle/backup-lifecycle.js';
import { auditFactsKey } from '../audit-interceptor.js';
import { callScopeOf } from '../call-scope.js';
import { toHandle, type ResultMapper } from '../operations/operation-mapping.js';
import { operationQueries } from '../operations/operation-queries.js';
import type { OperationsFacade } from '../operations/operations-facade.js';
import { addGuardedApi, type StoreApiHost, type StoreApiSetup } from '../store-api-host.js';
import { BACKUP_LIFECYCLE_SERVICE } from './backup-lifecycle-access.js';
import { mapRetentionApplyResult, scopeSelector } from './retention-apply-mapping.js';

export interface BackupLifecycleBindingFacades {
  /** The lifecycle engine; without it (or the operations facade) every RPC is Unimplemented. */
  lifecycle?: BackupLifecycle | undefined;
  operations?: OperationsFacade | undefined;
  resultMappers: Readonly<Record<string, ResultMapper>>;
}

const REASON_KINDS: Record<EngineReasonKind, KeepReasonKind> = {
  last: KeepReasonKind.LAST,
  hourly: KeepReasonKind.HOURLY,
  daily: KeepReasonKind.DAILY,
  weekly: KeepReasonKind.WEEKLY,
  monthly: KeepReasonKind.MONTHLY,
  yearly: KeepReasonKind.YEARLY,
  oldest: KeepReasonKind.OLDEST,
  within: KeepReasonKind.WITHIN,
  protected: KeepReasonKind.PROTECTED,
  base: KeepReasonKind.BASE,
  set: KeepReasonKind.SET,
  no_rules: KeepReasonKind.NO_RULES,
  damaged: KeepReasonKind.DAMAGED,
  proven_restorable: KeepReasonKind.PROVEN_RESTORABLE,
};

function toWireRules(rules: RetentionRules): MessageInitShape<typeof RetentionRulesSchema> {
  return {
    keepLast: rules.keepLast,
    keepHourly: rules.keepHourly,
    keepDaily: rules.keepDaily,
    keepWeekly: rules.keepWeekly,
    keepMonthly: rules.keepMonthly,
    keepYearly: rules.keepYearly,
    ...(rules.keepWithinMs > 0 && { keepWithin: durationFromMs(rules.keepWithinMs) }),
    timeZone: rules.timeZone,
  };
}

function fromWireRules(rules: WireRules | undefined): RetentionRules {
  return {
    keepLast: rules?.keepLast ?? 0,
    keepHourly: rules?.keepHourly ?? 0,
    keepDaily: rules?.keepDaily ?? 0,
    keepWeekly: rules?.keepWeekly ?? 0,
    keepMonthly: rules?.keepMonthly ?? 0,
    keepYearly: rules?.keepYearly ?? 0,
    keepWithinMs: durationToMs(rules?.keepWithin),
    timeZone: rules?.timeZone ?? '',
  };
}

function toRulesResponse(r: ScopeRules): MessageInitShape<typeof RetentionRulesResponseSchema> {
  return {
    scope: scopeSelector(r.scope.treeName, r.scope.keyPrefix),
    rules: toWireRules(r.rules),
    applyAfterSchedule: r.applyAfterSchedule,
    configured: r.configured,
    ...(r.updatedAt !== null && { updatedAt: timestampFromMs(r.updatedAt) }),
    updatedBy: r.updatedBy,
  };
}

function toProtection(p: Protection): MessageInitShape<typeof BackupProtectionSchema> {
  return {
    backupId: p.backupId,
    protectedBy: p.protectedBy,
    protectedAt: timestampFromMs(p.protectedAt),
    reason: p.reason,
  };
}

function toPreview(p: RetentionPreview) {
  return {
    scope: scopeSelector(p.treeName, p.keyPrefix),
    rules: toWireRules(p.rules),
    configured: p.configured,
    fingerprint: p.fingerprint,
    deleteCount: BigInt(p.deleteCount),
    keepCount: BigInt(p.keepCount),
    bytesFreed: BigInt(p.bytesFreed),
    setIds: p.setIds,
    entries: p.entries.map((e) => ({
      backupId: e.backupId,
      name: e.name,
      createdAt: timestampFromMs(e.createdAt),
      byteSize: BigInt(e.byteSize),
      kind: e.baseBackupId === null ? BackupKind.FULL : BackupKind.INCREMENTAL,
      ...(e.baseBackupId !== null && { baseBackupId: e.baseBackupId }),
      ...(e.setId !== null && { setId: e.setId }),
      action: e.action === 'DELETE' ? RetentionAction.DELETE : RetentionAction.KEEP,
      reasons: e.reasons.map((r) => ({
        kind: REASON_KINDS[r.kind],
        text: r.text,
        ...(r.since !== undefined && { since: timestampFromMs(r.since) }),
      })),
      protected: e.protected,
      healthStatus:
        e.health.status === 'UNVERIFIED'
          ? BackupHealthStatus.UNSPECIFIED
          : BackupHealthStatus[e.health.status],
      ...(e.health.checkedAt !== null && { lastVerifiedAt: timestampFromMs(e.health.checkedAt) }),
      ...(e.health.damagedSince !== null && {
        damagedSince: timestampFromMs(e.health.damagedSince),
      }),
    })),
    nextPageToken: p.nextPageToken,
    previewedAt: timestampFromMs(p.previewedAt),
  };
}

function actionOf(action: RetentionAction): 'DELETE' | 'KEEP' | undefined {
  if (action === RetentionAction.DELETE) return 'DELETE';
  if (action === RetentionAction.KEEP) return 'KEEP';
  return undefined;
}

/** Says in the call's audit record what it did beyond its name. */
function auditDetail(context: HandlerContext, detail: string): void {
  const facts = context.values.get(auditFactsKey);
  if (facts) facts.detail = detail;
}

/** BackupLifecycleService: retention rules, preview and apply, and protections. */
export function registerBackupLifecycleService(
  router: ConnectRouter,
  facades: BackupLifecycleBindingFacades,
): void {
  const { lifecycle, operations } = facades;
  const resultMappers = { ...facades.resultMappers, RETENTION_APPLY: mapRetentionApplyResult };
  const family = BACKUP_LIFECYCLE_OPERATION_KINDS;
  if (!lifecycle || !operations) {
    router.service(BackupLifecycleService, {});
    return;
  }
  const queries = operationQueries(operations, family, resultMappers);
  router.service(BackupLifecycleService, {
    async getRetentionRules(request, context) {
      const { tenant } = callScopeOf(context);
      return toRulesResponse(await lifecycle.getRules(scopeKeyOf(tenant, request.scope)));
    },
    async setRetentionRules(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const saved = await lifecycle.setRules(
        scopeKeyOf(tenant, request.scope),
        fromWireRules(request.rules),
        request.applyAfterSchedule,
        caller.subject,
      );
      auditDetail(
        context,
        `rules ${JSON.stringify(saved.rules)}; applied after each scheduled capture: ` +
          (saved.applyAfterSchedule ? 'yes' : 'no'),
      );
      return toRulesResponse(saved);
    },
    async previewRetention(request, context) {
      const { tenant } = callScopeOf(context);
      const preview = await lifecycle.preview(
        scopeKeyOf(tenant, request.scope),
        {
          pageSize: request.pageSize,
          pageToken: request.pageToken,
          action: actionOf(request.action),
        },
        request.draftRules && fromWireRules(request.draftRules),
      );
      return toPreview(preview);
    },
    async startRetentionApply(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const op = await lifecycle.startApply(
        { tenant, createdBy: caller.subject, trackingId: request.trackingOperationId },
        scopeKeyOf(tenant, request.scope),
        request.expectedFingerprint,
      );
      return toHandle(op);
    },
    async getRetentionApplyResult(request, context) {
      const { tenant } = callScopeOf(context);
      const op = request.operationId
        ? await operations.get(tenant, request.operationId, family)
        : undefined;
      if (op?.state !== 'SUCCEEDED') return { operationId: request.operationId };
      const result = op.result as RetentionApplyResult;
      return {
        operationId: op.id,
        scope: scopeSelector(result.treeName, result.keyPrefix),
        fingerprint: result.fingerprint,
        deletedBackupIds: result.deletedBackupIds,
        bytesFreed: BigInt(result.bytesFreed),
        deletedElsewhere: result.deletedElsewhere,
        keptCount: BigInt(result.keptCount),
        available: true,
      };
    },
    async protectBackup(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const p = await lifecycle.protect(tenant, request.backupId, caller.subject, request.reason);
      auditDetail(context, `protected: ${p.reason}`);
      return { protection: toProtection(p) };
    },
    async unprotectBackup(request, context) {
      const { tenant } = callScopeOf(context);
      const p = await lifecycle.unprotect(tenant, request.backupId, request.reason);
      auditDetail(
        context,
        `unprotected: ${request.reason.trim()} (was protected by ${p.protectedBy}: ${p.reason})`,
      );
      return { protection: toProtection(p) };
    },
    async listBackupProtections(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await lifecycle.listProtections(tenant, {
        backupIds: request.backupIds,
        treeName: request.treeId,
        pageSize: request.pageSize,
        pageToken: request.pageToken,
      });
      return {
        protections: page.protections.map(toProtection),
        nextPageToken: page.nextPageToken,
      };
    },
    getLifecycleOperationStatus: queries.status,
    listLifecycleOperations: queries.list,
    cancelLifecycleOperation: queries.cancel,
  });
}

/** Adds BackupLifecycleService with the same interceptor, authorizer and access gate. */
export function addBackupLifecycleApi(
  host: StoreApiHost,
  facades: BackupLifecycleBindingFacades,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  return addGuardedApi(
    host,
    BACKUP_LIFECYCLE_SERVICE,
    (router) => registerBackupLifecycleService(router, facades),
    configure,
  );
}
