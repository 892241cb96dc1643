import {
  claimDeletions,
  claimedForDeletion,
  markDeleted,
  releaseDeletion,
} from '../../../storage/backup/lifecycle/retention-claim-store.js';
import type { ScopeKey } from '../../../storage/backup/backup-scope-store.js';
import type { Storage } from '../../../storage/database.js';
import { failedPrecondition, isStoreError } from '../../errors.js';
import type { OperationContext } from '../../operations/index.js';
import type { CatalogService } from '../catalog/catalog-service.js';
import {
  backupHealth,
  backupNames,
  newestVerifiedHealthy,
} from '../../../storage/backup/lifecycle/retention-catalog-store.js';
import {
  autoApplyStop,
  autoApplyStopWords,
  DEFAULT_AUTO_APPLY_MAX_SHARE,
  newestHealthyPosition,
} from './auto-apply-guard.js';
import type { DamageStatus } from './retention-catalog.js';
import { deletionFacts, evaluateScope, type ScopeEvaluation } from './scope-evaluation.js';

/** What a retention apply operation is asked. */
export interface RetentionApplyRequest {
  treeName: string;
  keyPrefix: string;
  /** The preview's fingerprint; null for the run after a scheduled capture (it plans itself). */
  expectedFingerprint: string | null;
  /** The run after a scheduled capture: that capture (absent in requests stored before). */
  scheduledCapture?: ScheduledCapture | undefined;
}

/** The scheduled capture an automatic apply followed: its schedule and the backup it made. */
export interface ScheduledCapture {
  /** The backup's name, as the schedule's name template made it. */
  name: string;
  /** Which schedule of the scope fired: the full or the incremental one. */
  incremental: boolean;
}

/** What it did: the result stored with the operation. */
export interface RetentionApplyResult {
  treeName: string;
  keyPrefix: string;
  fingerprint: string;
  /** Deleted by this operation, in deletion order. */
  deletedBackupIds: string[];
  bytesFreed: number;
  /** Planned, but deleted by another apply running at the same time. */
  deletedElsewhere: string[];
  keptCount: number;
  /**
   * The first FIRST_DELETED_NAMED deletions with their names and sizes: the backups are gone from
   * the catalog afterwards, and a summary names them. Absent from results stored before.
   */
  firstDeleted?: DeletedBackup[];
  /** Ran by itself after a scheduled capture (planned itself), not from a preview. */
  afterScheduledCapture?: boolean;
  /**
   * The first FIRST_DELETED_NAMED backups kept because a check found them damaged (never counted,
   * never deleted by a rule), and how many there were. Absent from results stored before.
   */
  keptDamaged?: KeptDamagedBackup[];
  keptDamagedCount?: number;
  /**
   * Set when an automatic apply stopped instead of deleting (its guard: the scope's newest healthy
   * backup, or more than the allowed share): why, in words. Nothing was deleted.
   */
  stoppedReason?: string;
  /** The scheduled capture an automatic apply followed. */
  scheduledCapture?: ScheduledCapture;
}

export interface DeletedBackup {
  backupId: string;
  name: string;
  byteSize: number;
  /** What the last check found before the deletion; null: never checked. */
  health?: 'HEALTHY' | null;
}

export interface KeptDamagedBackup {
  backupId: string;
  name: string;
  status: DamageStatus;
  since: number;
}

/** How many deletions a result names (the ids of all of them are kept). */
export const FIRST_DELETED_NAMED = 100;

/** One retention deletion, for the audit trail. */
export interface RetentionDeletionEvent {
  tenant: string;
  by: string;
  operationId: string;
  backupId: string;
  backupName: string;
  byteSize: number;
  scope: ScopeKey;
  /** The scheduled capture an automatic apply followed; absent for an apply from a preview. */
  scheduledCapture?: ScheduledCapture | undefined;
}

/** An automatic apply that stopped instead of deleting, for the audit trail. */
export interface RetentionStopEvent {
  tenant: string;
  operationId: string;
  scope: ScopeKey;
  reason: string;
  scheduledCapture?: ScheduledCapture | undefined;
}

export interface ApplyDeps {
  storage: Storage;
  catalog: CatalogService;
  clock: () => number;
  onDeleted?: ((event: RetentionDeletionEvent) => Promise<void>) | undefined;
  onStopped?: ((event: RetentionStopEvent) => Promise<void>) | undefined;
  /** Of a scope's usable backups, the share an automatic apply may delete (default: half). */
  autoApplyMaxShare?: number | undefined;
}

const WAIT_FOR_DEPENDANTS_MS = 30_000;
/** Backups whose catalog rows one transaction deletes. */
const DELETE_BATCH = 200;

/** A scope's name in messages: "tree inventory" or "tree inventory, prefix sku/". */
export function scopeLabel(scope: { treeName: string; keyPrefix: string }): string {
  return scope.keyPrefix === ''
    ? `tree ${scope.treeName}`
    : `tree ${scope.treeName}, prefix ${scope.keyPrefix}`;
}

/**
 * Runs one retention apply: plans the scope again, refuses (FailedPrecondition) when the plan's
 * fingerprint is not the preview's, claims every planned deletion in one transaction and deletes
 * what it holds through the catalog's chain-safe batch delete (catalog rows of a batch in one
 * transaction, then their artifacts, in whatever artifact store the engine has), incrementals
 * before their bases.
 */
export async function runRetentionApply(
  deps: ApplyDeps,
  ctx: OperationContext<RetentionApplyRequest>,
): Promise<RetentionApplyResult> {
  const { storage, clock } = deps;
  const scope: ScopeKey = {
    tenant: ctx.tenant,
    treeName: ctx.request.treeName,
    keyPrefix: ctx.request.keyPrefix,
  };
  const evaluation = await evaluateScope(storage, scope, clock());
  const expected = ctx.request.expectedFingerprint;
  if (expected !== null && evaluation.fingerprint !== expected) {
    throw failedPrecondition(
      `the catalog or the retention rules of ${scopeLabel(scope)} changed since the preview; ` +
        'preview again and apply that preview',
    );
  }
  const keptDamaged = await keptDamagedOf(storage, evaluation);
  const scheduledCapture = expected === null ? ctx.request.scheduledCapture : undefined;
  if (expected === null) {
    const stopped = await guardAutomaticApply(deps, evaluation);
    if (stopped !== undefined) {
      await deps.onStopped?.({
        tenant: ctx.tenant,
        operationId: ctx.operationId,
        scope,
        reason: stopped,
        scheduledCapture,
      });
      return {
        treeName: scope.treeName,
        keyPrefix: scope.keyPrefix,
        fingerprint: evaluation.fingerprint,
        deletedBackupIds: [],
        bytesFreed: 0,
        deletedElsewhere: [],
        keptCount: evaluation.catalog.ids.length,
        firstDeleted: [],
        afterScheduledCapture: true,
        keptDamaged,
        keptDamagedCount: evaluation.catalog.damaged.size,
        stoppedReason: stopped,
        ...(scheduledCapture && { scheduledCapture }),
      };
    }
  }
  const rowById = await deletionFacts(storage, evaluation);
  const planned = evaluation.deletedIds;
  const held = await claimDeletions(
    storage,
    planned.map((id) => ({
      tenant: ctx.tenant,
      backupId: id,
      operationId: ctx.operationId,
      scope,
      backupName: rowById.get(id)?.name ?? '',
      byteSize: rowById.get(id)?.byteSize ?? 0,
      backupCreatedAt: rowById.get(id)?.createdAt,
      now: clock(),
    })),
  );
  const result: RetentionApplyResult = {
    treeName: scope.treeName,
    keyPrefix: scope.keyPrefix,
    fingerprint: evaluation.fingerprint,
    deletedBackupIds: [],
    bytesFreed: 0,
    deletedElsewhere: planned.filter((id) => !held.has(id)),
    keptCount: evaluation.plan.kept.length,
    firstDeleted: [],
    afterScheduledCapture: expected === null,
    keptDamaged,
    keptDamagedCount: evaluation.catalog.damaged.size,
    ...(scheduledCapture && { scheduledCapture }),
  };
  // Audit records are written behind the deletions, and "deleted" marks once per batch (a claim
  // left unmarked by a crash is taken over, and its delete finds the backup gone); both are
  // complete before the operation succeeds.
  const records: Promise<void>[] = [];
  let unmarked: string[] = [];
  const markAll = async () => {
    const ids = unmarked;
    unmarked = [];
    await markDeleted(storage, {
      tenant: ctx.tenant,
      backupIds: ids,
      operationId: ctx.operationId,
      now: clock(),
    });
  };
  const recordDeleted = (id: string) => {
    const row = rowById.get(id);
    result.deletedBackupIds.push(id);
    result.bytesFreed += row?.byteSize ?? 0;
    if (result.deletedBackupIds.length <= FIRST_DELETED_NAMED) {
      result.firstDeleted?.push({
        backupId: id,
        name: row?.name ?? '',
        byteSize: row?.byteSize ?? 0,
        health: healthOf.get(id)?.status === 'HEALTHY' ? 'HEALTHY' : null,
      });
    }
    const recorded = deps.onDeleted?.({
      tenant: ctx.tenant,
      by: ctx.createdBy,
      operationId: ctx.operationId,
      backupId: id,
      backupName: row?.name ?? '',
      byteSize: row?.byteSize ?? 0,
      scope,
      scheduledCapture,
    });
    if (recorded) records.push(recorded);
  };
  const mine = planned.filter((id) => held.has(id));
  // The first batch holds every named deletion (a batch deletes its own before the next starts):
  // their health is read before they are gone. The plan deleted none a check found damaged.
  const healthOf = await backupHealth(
    storage,
    ctx.tenant,
    mine.slice(0, Math.max(DELETE_BATCH, FIRST_DELETED_NAMED)),
  );
  let done = 0;
  // Batches in plan order (dependants first): each batch's rows go in one transaction. A backup
  // another replica's dependant still needs is left by the batch and deleted alone, waiting.
  for (let start = 0; start < mine.length; start += DELETE_BATCH) {
    ctx.throwIfCancelled();
    const batch = mine.slice(start, start + DELETE_BATCH);
    const pending = new Set(batch);
    try {
      const { deleted, blocked, artifactsError } = await deps.catalog.deleteBatch(
        ctx.tenant,
        batch,
      );
      for (const id of deleted) {
        pending.delete(id);
        recordDeleted(id);
      }
      // Their rows are gone (recorded above) but the store kept files, scrub's now: the apply
      // fails with the store's error instead of claiming the bytes freed.
      if (artifactsError !== undefined) throw artifactsError;
      for (const id of batch) {
        if (!blocked.includes(id)) pending.delete(id);
      }
      for (const id of blocked) {
        if ((await deleteWhenDependantsGone(deps, ctx.tenant, id)).length > 0) recordDeleted(id);
        pending.delete(id);
      }
    } catch (error) {
      for (const id of pending) {
        await releaseDeletion(storage, {
          tenant: ctx.tenant,
          backupId: id,
          operationId: ctx.operationId,
        });
      }
      unmarked.push(...batch.filter((id) => !pending.has(id)));
      await markAll();
      await Promise.all(records);
      throw error;
    }
    unmarked.push(...batch);
    await markAll();
    done += batch.length;
    ctx.progress({
      done,
      total: held.size,
      unit: 'backups',
      message: `deleted ${batch.length} backups`,
    });
  }
  await markAll();
  await Promise.all(records);
  return result;
}

/**
 * The guard of an apply nobody previewed (after a scheduled capture): why it must delete nothing
 * (auto-apply-guard.ts), in words, or undefined when its plan may go ahead.
 */
async function guardAutomaticApply(
  deps: ApplyDeps,
  evaluation: ScopeEvaluation,
): Promise<string | undefined> {
  const { catalog, plan, scope } = evaluation;
  if (plan.deleted.length === 0) return undefined;
  const verified = await newestVerifiedHealthy(deps.storage, scope);
  const verifiedPosition = verified ? catalog.ids.indexOf(verified.backupId) : -1;
  const stop = autoApplyStop(
    catalog,
    plan,
    newestHealthyPosition(catalog, verifiedPosition),
    deps.autoApplyMaxShare ?? DEFAULT_AUTO_APPLY_MAX_SHARE,
  );
  if (stop === undefined) return undefined;
  const named = stop.kind === 'newest_healthy' ? [catalog.ids[stop.position]!] : [];
  const names = await backupNames(deps.storage, scope.tenant, named);
  return autoApplyStopWords(stop, scopeLabel(scope), (k) => {
    const id = catalog.ids[k]!;
    return names.get(id) || id;
  });
}

/** The first FIRST_DELETED_NAMED damaged backups the plan kept, newest first, with names. */
async function keptDamagedOf(
  storage: Storage,
  evaluation: ScopeEvaluation,
): Promise<KeptDamagedBackup[]> {
  const { catalog } = evaluation;
  const positions = [...catalog.damaged.keys()].sort((a, b) => a - b).slice(0, FIRST_DELETED_NAMED);
  const names = await backupNames(
    storage,
    evaluation.scope.tenant,
    positions.map((k) => catalog.ids[k]!),
  );
  return positions.map((k) => {
    const damage = catalog.damaged.get(k)!;
    const id = catalog.ids[k]!;
    return { backupId: id, name: names.get(id) ?? '', status: damage.status, since: damage.since };
  });
}

/**
 * Deletes one backup without cascade. Its dependants are planned before it, so they are gone —
 * unless another apply holds them and has not deleted them yet: then wait for it, a while.
 */
async function deleteWhenDependantsGone(
  deps: ApplyDeps,
  tenant: string,
  backupId: string,
): Promise<string[]> {
  const started = deps.clock();
  for (let delay = 20; ; delay = Math.min(delay * 2, 500)) {
    try {
      return await deps.catalog.delete(tenant, backupId, false);
    } catch (error) {
      if (!isStoreError(error) || error.code !== 'failed_precondition') throw error;
      const dependants = await deps.catalog.dependantsOf(tenant, backupId);
      const claimed = await claimedForDeletion(deps.storage, tenant, dependants);
      const othersDeleting = dependants.length > 0 && dependants.every((d) => claimed.has(d));
      if (!othersDeleting || deps.clock() - started > WAIT_FOR_DEPENDANTS_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
