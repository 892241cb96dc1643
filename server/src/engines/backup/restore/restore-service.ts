import { randomUUID } from 'node:crypto';
import { getRestore } from '../../../storage/backup/backup-restore-store.js';
import type { Storage } from '../../../storage/database.js';
import {
  bulkInsertEntries,
  countLiveEntries,
  createPhysicalTree,
  dropPhysicalTree,
  type EntryToInsert,
} from '../../../storage/data/physical-tree-store.js';
import {
  installRestoredTree,
  preCopyOutsidePrefix,
} from '../../../storage/backup/restore-install-store.js';
import { refreshEntryStatistics } from '../../../storage/data/planner-statistics.js';
import { openHiddenTreeLoader } from '../../../storage/data/tree-loader.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { resolveTree } from '../../../storage/data/tree-store.js';
import { validateTreeName } from '../../data/tree-names.js';
import { StoreError, failedPrecondition, invalidArgument } from '../../errors.js';
import type { ArtifactRecord, ArtifactStore } from '../artifacts/index.js';
import type { RestoreRequest, RestoreResult } from '../backup-types.js';
import { stepSize, validateBackupId, validateScope } from '../validation.js';
import type { ManifestChain } from './chain-source.js';

/** Who runs a restore, and how it reports. */
export interface RestoreContext {
  tenant: string;
  signal: AbortSignal;
  progress(done: number, total: number, message: string): void;
  /** A cold restore holds the target's write lock under this id. */
  lockedBy: string | null;
  /** Awaited after each applied batch with the entries applied so far (a drill's throttle). */
  pace?: (applied: number) => Promise<void>;
}

/** Where and how `RestoreService.apply` writes a chain. */
export interface ApplyTarget {
  physicalTreeId: string;
  /** Only keys under it ('' for all). */
  prefix: string;
  batchSize: number;
  /** The chain's entry count, for progress. */
  total: number;
  keepRecord?: ((record: ArtifactRecord) => boolean) | undefined;
  /** The handle to write through (a drill's scratch table); the restore's storage if absent. */
  into?: TreeDb | undefined;
}

/** The restore engine's idempotency key (RestoreRequestMessage.operation_id): its longest form. */
export const MAX_RESTORE_OPERATION_ID = 200;

/** Validates a restore request before it is queued; returns the normalised target tree. */
export function validateRestoreRequest(request: RestoreRequest): void {
  validateBackupId(request.backupId);
  if (request.targetTreeId !== undefined && request.targetTreeId !== '') {
    validateTreeName(request.targetTreeId, 'target_tree_id');
  } else if (request.mode === 'NEW_TREE') {
    throw invalidArgument('target_tree_id', 'is required for a restore into a new tree');
  }
  if (request.scope) validateScope(request.scope);
  stepSize(request.applyBatchSize, 'apply_batch_size');
  if (request.operationId !== undefined && request.operationId.length > MAX_RESTORE_OPERATION_ID) {
    throw invalidArgument('operation_id', `at most ${MAX_RESTORE_OPERATION_ID} characters`);
  }
}

/** The longer of two prefixes when one contains the other (the narrower scope); else null. */
export function narrowest(a: string, b: string): string | null {
  if (a.startsWith(b)) return a;
  if (b.startsWith(a)) return b;
  return null;
}

/**
 * Applies a backup chain into a fresh physical tree and installs it (DESIGN.md §3): every
 * artifact of the chain is verified before anything is written (DataLoss leaves the target
 * untouched), then the chain is applied full → incrementals in batches, then one transaction
 * swaps (IN_PLACE, NEW_TREE) or just records (SHADOW). Any failure drops the fresh tree.
 */
export class RestoreService {
  constructor(
    private readonly storage: Storage,
    private readonly artifacts: ArtifactStore,
    private readonly clock: () => number,
    /** Test seam: runs after each applied batch. */
    private readonly afterBatch?: () => Promise<void>,
  ) {}

  /** A restore already stored under this operation id, if any (repeat → first result). */
  async previous(
    tenant: string,
    operationId: string | undefined,
  ): Promise<RestoreResult | undefined> {
    if (!operationId) return undefined;
    const row = await getRestore(this.storage, tenant, operationId);
    return row && (JSON.parse(row.resultJson) as RestoreResult);
  }

  /** Runs the restore of `chain` (see the class comment). */
  async restore(
    ctx: RestoreContext,
    request: RestoreRequest,
    chain: ManifestChain,
  ): Promise<RestoreResult> {
    const operationId = request.operationId || randomUUID();
    const earlier = await this.previous(ctx.tenant, operationId);
    if (earlier) return earlier;
    const target = chain[chain.length - 1];
    if (!target) throw new Error('empty chain');
    const targetTree = request.targetTreeId || target.treeName;
    const batchSize = stepSize(request.applyBatchSize, 'apply_batch_size');
    const scopePrefix = request.scope?.keyPrefix ?? '';
    const prefix = narrowest(scopePrefix, target.keyPrefix ?? '');
    if (prefix === null) throw invalidArgument('scope.key_prefix', 'lies outside the backup');

    const total = chain.reduce((n, m) => n + m.entryCount, 0);
    // The total from the start: the console shows a percent, not an indeterminate bar, while
    // the chain's artifacts are verified (as long as the apply itself on a slow store).
    const artifactCount = chain.reduce((n, m) => n + m.artifacts.length, 0);
    ctx.progress(0, total, `verifying ${artifactCount} artifacts of ${chain.length} backups`);
    await this.verifyChain(ctx, chain);

    const current = await resolveTree(this.storage, ctx.tenant, targetTree);
    if (request.mode === 'NEW_TREE' && current) {
      if ((await countLiveEntries(this.storage, current.physicalTreeId)) > 0) {
        throw failedPrecondition(
          `tree ${targetTree} is not empty; a restore into a new tree needs an empty one`,
        );
      }
    }
    if (current?.writeLockedBy && current.writeLockedBy !== ctx.lockedBy) {
      throw failedPrecondition(
        `tree ${targetTree} is locked by operation ${current.writeLockedBy}`,
      );
    }
    const physicalTreeId = await createPhysicalTree(this.storage, {
      tenant: ctx.tenant,
      treeName: targetTree,
      now: this.clock(),
      lastSequence: current?.lastSequence ?? 0,
    });
    try {
      const applied = await this.apply(ctx, chain, { physicalTreeId, prefix, batchSize, total });
      // A scoped restore applies only the entries under its prefix: the total was the chain's
      // whole count, so it ends at what it applied rather than short of 100 %.
      if (applied !== total) ctx.progress(applied, applied, `applied ${applied} entries`);
      const result: RestoreResult = {
        backupId: target.backupId,
        targetTreeId: targetTree,
        mode: request.mode,
        operationId,
        manifestChain: chain.map((m) => m.backupId),
        entriesApplied: applied,
      };
      if (request.mode === 'SHADOW') result.shadowPhysicalTreeId = physicalTreeId;
      ctx.signal.throwIfAborted();
      // A scoped restore keeps the rest of the tree: copied here in bounded steps, so the
      // install's transaction copies only what was written meanwhile.
      const preCopied =
        prefix !== '' && request.mode !== 'SHADOW'
          ? await preCopyOutsidePrefix(
              this.storage,
              { tenant: ctx.tenant, treeName: targetTree, physicalTreeId, keyPrefix: prefix },
              { signal: ctx.signal },
            )
          : undefined;
      const now = this.clock();
      const outcome = await installRestoredTree(this.storage, {
        preCopied,
        tenant: ctx.tenant,
        treeName: targetTree,
        physicalTreeId,
        mode: request.mode,
        keyPrefix: prefix,
        lockedBy: ctx.lockedBy,
        now,
        restore: {
          tenant: ctx.tenant,
          operationId,
          backupId: target.backupId,
          targetTree,
          mode: request.mode,
          restoredPhysicalTreeId: physicalTreeId,
          resultJson: '',
          createdAt: now,
        },
        resultOf: (previous) => {
          if (request.mode === 'IN_PLACE' && previous) result.previousPhysicalTreeId = previous;
          return JSON.stringify(result);
        },
      });
      if (outcome.status === 'duplicate') {
        await dropPhysicalTree(this.storage, physicalTreeId);
        return JSON.parse(outcome.existing.resultJson) as RestoreResult;
      }
      if (outcome.status === 'not_empty') {
        throw failedPrecondition(
          `tree ${targetTree} is not empty; a restore into a new tree needs an empty one`,
        );
      }
      if (outcome.status === 'locked') {
        throw failedPrecondition(`tree ${targetTree} is locked by operation ${outcome.lockedBy}`);
      }
      // A bulk load: the planner needs to know the table grew (planner-statistics.ts). In the
      // background, so neither the result nor a cold restore's write lock waits for it.
      if (applied > 0) void refreshEntryStatistics(this.storage);
      return result;
    } catch (error) {
      await dropPhysicalTree(this.storage, physicalTreeId).catch(() => false);
      throw error;
    }
  }

  /** Hashes every artifact of the chain; the first that fails is DataLoss (a drill's too). */
  async verifyChain(ctx: RestoreContext, chain: ManifestChain): Promise<void> {
    for (const manifest of chain) {
      for (const artifact of manifest.artifacts) {
        const check = await this.artifacts.verifyArtifact(ctx.tenant, manifest.backupId, artifact, {
          signal: ctx.signal,
        });
        if (!check.ok) {
          throw new StoreError(
            'data_loss',
            `artifact ${artifact.artifactId} of backup ${manifest.backupId} failed verification ` +
              `(${check.problem ?? 'unknown'}); nothing was restored`,
          );
        }
      }
    }
  }

  /**
   * Applies the chain in order. The full backup at its head goes into the empty tree through a
   * loader (COPY on PostgreSQL, plain inserts on SQLite: one key once, nothing to upsert); each
   * incremental after it is upserted batch by batch, so a later value of a key wins and a
   * tombstone replaces the value. A restore drill passes `keepRecord`, which sees every record
   * as the artifact holds it (its spot-check sample) and may leave one out (its test seam), and
   * `into`, the handle of its scratch tree's own table (storage/data/scratch-entries.ts).
   */
  async apply(ctx: RestoreContext, chain: ManifestChain, target: ApplyTarget): Promise<number> {
    const { physicalTreeId, prefix, batchSize, total, keepRecord } = target;
    const into = target.into ?? this.storage;
    let applied = 0;
    const now = this.clock();
    for (const [position, manifest] of chain.entries()) {
      const loader =
        position === 0 && manifest.baseBackupId === null
          ? await openHiddenTreeLoader(into, physicalTreeId, now)
          : undefined;
      const toInsert = (record: ArtifactRecord): EntryToInsert => ({
        ...record,
        tombstone: record.valueJson === null,
        updatedAt: now,
      });
      const options = { hiddenTree: true };
      const write = async (batch: ArtifactRecord[]) => {
        ctx.signal.throwIfAborted();
        if (loader) await loader.write(batch);
        else await bulkInsertEntries(into, physicalTreeId, batch.map(toInsert), options);
        applied += batch.length;
        ctx.progress(applied, total, `applied ${applied} of ${total} entries`);
        await ctx.pace?.(applied);
        await this.afterBatch?.();
      };
      try {
        let buffer: ArtifactRecord[] = [];
        for (const artifact of manifest.artifacts) {
          const batches = this.artifacts.readArtifactBatches(
            ctx.tenant,
            manifest.backupId,
            artifact,
            { signal: ctx.signal },
          );
          for await (const batch of batches) {
            for (const record of batch) {
              if (prefix !== '' && !record.key.startsWith(prefix)) continue;
              if (keepRecord && !keepRecord(record)) continue;
              buffer.push(record);
              if (buffer.length >= batchSize) {
                await write(buffer);
                buffer = [];
              }
            }
          }
        }
        // Written at each backup's end so a later backup's value of a key always lands after.
        if (buffer.length > 0) await write(buffer);
        await loader?.finish();
      } catch (error) {
        await loader?.abort(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }
    }
    return applied;
  }
}
