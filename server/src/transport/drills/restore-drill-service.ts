import type { MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  RestoreDrillOutcome,
  RestoreDrillReasonKind,
  RestoreDrillService,
  durationFromMs,
  type RestoreDrillRecordSchema,
} from '@store/contract';
import type {
  DrillBackupResult,
  DrillReasonKind,
  RestoreDrillResult,
} from '../../engines/backup/drills/drill-types.js';
import type { RestoreDrills, StoredDrill } from '../../engines/backup/drills/restore-drills.js';
import { scopeKeyOf } from '../../engines/backup/lifecycle/backup-lifecycle.js';
import { RESTORE_DRILL_OPERATION_KINDS } from '../../engines/operation-kinds.js';
import { callScopeOf } from '../call-scope.js';
import { scopeSelector } from '../lifecycle/retention-apply-mapping.js';
import { toHandle, type ResultMapper } from '../operations/operation-mapping.js';
import { operationQueries } from '../operations/operation-queries.js';
import type { OperationsFacade } from '../operations/operations-facade.js';
import { addGuardedApi, type StoreApiHost, type StoreApiSetup } from '../store-api-host.js';
import { RESTORE_DRILL_SERVICE } from './restore-drill-access.js';

export interface RestoreDrillBindingFacades {
  /** The drills engine; without it (or the operations facade) every RPC is Unimplemented. */
  drills?: RestoreDrills | undefined;
  operations?: OperationsFacade | undefined;
  resultMappers: Readonly<Record<string, ResultMapper>>;
}

const REASON_KINDS: Record<DrillReasonKind, RestoreDrillReasonKind> = {
  NONE: RestoreDrillReasonKind.UNSPECIFIED,
  NO_DIGEST: RestoreDrillReasonKind.NO_DIGEST,
  UNREADABLE_ARTIFACT: RestoreDrillReasonKind.UNREADABLE_ARTIFACT,
  COUNT: RestoreDrillReasonKind.COUNT,
  DIGEST: RestoreDrillReasonKind.DIGEST,
  SAMPLE: RestoreDrillReasonKind.SAMPLE,
};

const outcomeOf = (outcome: string) =>
  outcome === 'PROVEN' ? RestoreDrillOutcome.PROVEN : RestoreDrillOutcome.FAILED;

const reasonOf = (kind: string) =>
  REASON_KINDS[kind as DrillReasonKind] ?? RestoreDrillReasonKind.UNSPECIFIED;

const rate = (entries: number, durationMs: number) =>
  Math.round((entries * 1000) / Math.max(durationMs, 1));

/** A stored drill as its wire record. */
export function fromStored(d: StoredDrill): MessageInitShape<typeof RestoreDrillRecordSchema> {
  return {
    operationId: d.operationId,
    backupId: d.backupId,
    ...(d.backupName != null && { backupName: d.backupName }),
    ...(d.setId !== null && { setId: d.setId }),
    scope: scopeSelector(d.treeName, d.keyPrefix),
    outcome: outcomeOf(d.outcome),
    reasonKind: reasonOf(d.reasonKind),
    reason: d.reason,
    ...(d.firstDifferingKey !== null && { firstDifferingKey: d.firstDifferingKey }),
    entries: BigInt(d.entries),
    duration: durationFromMs(d.durationMs),
    entriesPerSecond: rate(d.entries, d.durationMs),
    finishedAt: timestampFromMs(d.finishedAt),
    startedBy: d.startedBy,
    sampleSeed: Number(d.sampleSeed),
    sampleSize: d.sampleSize,
  };
}

function fromResult(
  b: DrillBackupResult,
  facts: { operationId: string; setId: string | null; finishedAt: number; startedBy: string },
  r: RestoreDrillResult,
): MessageInitShape<typeof RestoreDrillRecordSchema> {
  return {
    operationId: facts.operationId,
    backupId: b.backupId,
    ...(facts.setId !== null && { setId: facts.setId }),
    scope: scopeSelector(b.treeName, b.keyPrefix),
    outcome: outcomeOf(b.outcome),
    reasonKind: reasonOf(b.reasonKind),
    reason: b.reason,
    ...(b.firstDifferingKey !== null && { firstDifferingKey: b.firstDifferingKey }),
    entries: BigInt(b.entries),
    duration: durationFromMs(b.durationMs),
    entriesPerSecond: rate(b.entries, b.durationMs),
    finishedAt: timestampFromMs(facts.finishedAt),
    startedBy: facts.startedBy,
    sampleSeed: r.sampleSeed,
    sampleSize: r.sampleSize,
  };
}

/** RestoreDrillService: start, result, history, status and cancel of restore drills. */
export function registerRestoreDrillService(
  router: ConnectRouter,
  facades: RestoreDrillBindingFacades,
): void {
  const { drills, operations } = facades;
  const family = RESTORE_DRILL_OPERATION_KINDS;
  if (!drills || !operations) {
    router.service(RestoreDrillService, {});
    return;
  }
  const queries = operationQueries(operations, family, facades.resultMappers);
  router.service(RestoreDrillService, {
    async startRestoreDrill(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const op = await drills.start(
        { tenant, createdBy: caller.subject, trackingId: request.trackingOperationId },
        {
          ...(request.target.case === 'backupId' && { backupId: request.target.value }),
          ...(request.target.case === 'setId' && { setId: request.target.value }),
          maxEntriesPerSecond: request.maxEntriesPerSecond,
          ...(request.sampleSeed !== undefined && { sampleSeed: request.sampleSeed }),
        },
      );
      return toHandle(op);
    },
    async getRestoreDrillResult(request, context) {
      const { tenant } = callScopeOf(context);
      const op = request.operationId
        ? await operations.get(tenant, request.operationId, family)
        : undefined;
      if (op?.state !== 'SUCCEEDED') return { operationId: request.operationId };
      const r = op.result as RestoreDrillResult;
      const facts = {
        operationId: op.id,
        setId: r.setId,
        finishedAt: op.finishedAt ?? 0,
        startedBy: op.createdBy,
      };
      return {
        operationId: op.id,
        outcome: outcomeOf(r.outcome),
        reasonKind: reasonOf(r.reasonKind),
        reason: r.reason,
        ...(r.firstDifferingKey !== null && { firstDifferingKey: r.firstDifferingKey }),
        duration: durationFromMs(r.durationMs),
        entries: BigInt(r.entries),
        entriesPerSecond: r.entriesPerSecond,
        sampleSeed: r.sampleSeed,
        backups: r.backups.map((b) => fromResult(b, facts, r)),
        available: true,
      };
    },
    async listRestoreDrills(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await drills.history(scopeKeyOf(tenant, request.scope), {
        pageSize: request.pageSize,
        pageToken: request.pageToken,
      });
      return { drills: page.drills.map(fromStored), nextPageToken: page.nextPageToken };
    },
    getRestoreDrillStatus: queries.status,
    cancelRestoreDrill: queries.cancel,
  });
}

/** Adds RestoreDrillService with the same interceptor, authorizer and access gate. */
export function addRestoreDrillApi(
  host: StoreApiHost,
  facades: RestoreDrillBindingFacades,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  return addGuardedApi(
    host,
    RESTORE_DRILL_SERVICE,
    (router) => registerRestoreDrillService(router, facades),
    configure,
  );
}
