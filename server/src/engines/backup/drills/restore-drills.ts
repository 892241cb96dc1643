import { randomInt } from 'node:crypto';
import { getBackupRow, listSetMembers } from '../../../storage/backup/backup-store.js';
import {
  getDrillRows,
  insertDrill,
  leftoverScratchTrees,
  listDrills,
  scratchTreesOf,
  type StoredDrill,
} from '../../../storage/backup/drills/restore-drill-store.js';
import type { Storage } from '../../../storage/database.js';
import { dropPhysicalTree } from '../../../storage/data/physical-tree-store.js';
import { invalidArgument, notFound } from '../../errors.js';
import { createBackgroundYielder } from '../../event-loop-yield.js';
import {
  startTracked,
  type OperationContext,
  type OperationLogger,
  type OperationRecord,
  type OperationRunner,
  type Starter,
} from '../../operations/index.js';
import { decodePageToken, encodePageToken } from '../../operations/page-token.js';
import { createReadPacer } from '../capture/read-pacer.js';
import { chainFromCatalog } from '../restore/chain-source.js';
import type { RestoreService } from '../restore/restore-service.js';
import { validateBackupId } from '../validation.js';
import { drillBackup } from './backup-drill.js';
import { backupProofs, treeProofs } from './drill-proofs.js';
import type {
  DrillBackupResult,
  DrillTestSeams,
  RestoreDrillRequest,
  RestoreDrillResult,
} from './drill-types.js';

export type { StoredDrill } from '../../../storage/backup/drills/restore-drill-store.js';

/** Sampled entries a drill spot-checks against its artifacts. */
export const DRILL_SAMPLE_SIZE = 100;
const MAX_PER_SECOND = 10_000_000;
const DEFAULT_PAGE = 50;
const MAX_PAGE = 500;

export interface RestoreDrillsOptions {
  storage: Storage;
  runner: OperationRunner;
  restores: RestoreService;
  clock?: () => number;
  logger?: OperationLogger | undefined;
  /** Test seams (drill-types.ts): planted faults; never set outside tests. */
  testSeams?: DrillTestSeams;
  /** Restored entries from which SQLite reads back on worker threads (backup-drill.ts). */
  readBackWorkersFrom?: number;
}

/**
 * Restore drills (issue 36 bullet 2): a tracked operation of kind RESTORE_DRILL that proves a
 * backup restores into the content its capture recorded (backup-drill.ts), with its result kept
 * per scope as the drill history.
 */
export class RestoreDrills {
  private readonly clock: () => number;

  /**
   * The scratch trees' drops, one after another, after the drills that filled them have their
   * results: a drill's answer does not wait for the delete of a million rows (on SQLite as long
   * as half the restore), and the drop still runs in bounded steps.
   */
  private drops: Promise<void> = Promise.resolve();
  private pendingDrops = 0;
  private readonly stopping = new AbortController();

  constructor(private readonly options: RestoreDrillsOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Resolves once every scratch tree handed over so far is dropped (or left to the sweep). */
  dropsSettled(): Promise<void> {
    return this.drops;
  }

  /**
   * Stops dropping: the drop under way ends at its next step and later ones are not started;
   * what is left is a leftover the next start sweeps.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.drops;
  }

  private dropLater(physicalTreeId: string): void {
    const { storage, logger } = this.options;
    const signal = this.stopping.signal;
    this.pendingDrops += 1;
    this.drops = this.drops.then(async () => {
      try {
        if (!signal.aborted) await dropPhysicalTree(storage, physicalTreeId, { signal });
      } catch (error) {
        if (!signal.aborted) {
          logger?.warn({ err: error, physicalTreeId }, 'a drill scratch tree was not dropped');
        }
      } finally {
        this.pendingDrops -= 1;
      }
    });
  }

  /**
   * Registers RESTORE_DRILL. Resumable: a drill whose process died starts over, first dropping
   * the scratch tree its predecessor filled, so a SIGKILL leaves nothing once it is resumed.
   */
  register(): void {
    this.options.runner.register<RestoreDrillRequest, unknown>('RESTORE_DRILL', {
      resumable: true,
      run: (ctx) => this.run(ctx),
    });
  }

  /** Drops the scratch trees of drills that are no longer running (at start, then per drill). */
  async sweepLeftovers(): Promise<number> {
    let dropped = 0;
    for (const id of await leftoverScratchTrees(this.options.storage, this.clock())) {
      if (await dropPhysicalTree(this.options.storage, id)) dropped += 1;
    }
    return dropped;
  }

  /** Starts a drill of a backup or a set (validated; NotFound for an unknown one). */
  async start(who: Starter, request: RestoreDrillRequest): Promise<OperationRecord> {
    const normalised = validateDrillRequest(request);
    const targetId = normalised.backupId ?? normalised.setId ?? null;
    return startTracked(
      this.options.runner,
      who,
      { kind: 'RESTORE_DRILL', request: normalised, targetId },
      async () => {
        await this.backupsOf(who.tenant, normalised);
      },
    );
  }

  /** A finished drill's stored rows (one per backup it restored). */
  rowsOf(tenant: string, operationId: string): Promise<StoredDrill[]> {
    return getDrillRows(this.options.storage, tenant, operationId);
  }

  /** A scope's drill history, newest first, a page at a time (0 → 50, at most 500). */
  async history(
    scope: { tenant: string; treeName: string; keyPrefix: string },
    page: { pageSize: number; pageToken: string },
  ): Promise<{ drills: StoredDrill[]; nextPageToken: string }> {
    if (!Number.isInteger(page.pageSize) || page.pageSize < 0 || page.pageSize > MAX_PAGE) {
      throw invalidArgument('page_size', `must be between 0 and ${MAX_PAGE}`);
    }
    const limit = page.pageSize === 0 ? DEFAULT_PAGE : page.pageSize;
    const after = page.pageToken === '' ? undefined : decodePageToken(page.pageToken);
    const rows = await listDrills(this.options.storage, scope, {
      limit: limit + 1,
      before: after && { finishedAt: after.createdAt, operationId: after.id },
    });
    const drills = rows.slice(0, limit);
    const last = drills.at(-1);
    return {
      drills,
      nextPageToken:
        rows.length > limit && last
          ? encodePageToken({ createdAt: last.finishedAt, id: last.operationId })
          : '',
    };
  }

  /** A page of the tenant's trees with their last proven and last drill (issue 36 bullet 5). */
  treeProofs(tenant: string, page: { pageSize: number; pageToken: string }) {
    return treeProofs(this.options.storage, tenant, page);
  }

  /** The last proven and last drill of each asked backup, in the order asked. */
  backupProofs(tenant: string, backupIds: readonly string[]) {
    return backupProofs(this.options.storage, tenant, backupIds);
  }

  private async backupsOf(tenant: string, request: RestoreDrillRequest): Promise<string[]> {
    const { storage } = this.options;
    if (request.setId !== undefined) {
      const members = await listSetMembers(storage, tenant, request.setId);
      if (members.length === 0) throw notFound(`backup set ${request.setId} does not exist`);
      return members;
    }
    const backupId = request.backupId ?? '';
    if (!(await getBackupRow(storage, tenant, backupId))) {
      throw notFound(`backup ${backupId} does not exist`);
    }
    return [backupId];
  }

  private async run(ctx: OperationContext<RestoreDrillRequest>): Promise<RestoreDrillResult> {
    const { storage, restores } = this.options;
    // The sweep below must not race a drop still under way (it would delete the same rows).
    if (this.pendingDrops > 0) {
      ctx.progress({
        done: 0,
        message: 'waiting for an earlier drill’s scratch tree to be dropped',
      });
      await this.drops;
    }
    for (const id of await scratchTreesOf(storage, ctx.tenant, ctx.operationId)) {
      await dropPhysicalTree(storage, id);
    }
    await this.sweepLeftovers();
    const started = this.clock();
    const request = ctx.request;
    const seed = request.sampleSeed ?? randomInt(0, 2 ** 31);
    const backupIds = await this.backupsOf(ctx.tenant, request);
    const background = createBackgroundYielder(ctx.tenant);
    const perSecond = request.maxEntriesPerSecond ?? 0;
    const results: DrillBackupResult[] = [];
    try {
      for (const backupId of backupIds) {
        const chain = await chainFromCatalog(storage, ctx.tenant, backupId);
        const applyPacer = createReadPacer(perSecond, ctx.signal);
        // The read-back's pace counts from its own first chunk, not from the apply's start.
        let readPacer: ((read: number) => Promise<void>) | undefined;
        const result = await drillBackup(
          {
            storage,
            restores,
            clock: this.clock,
            seams: this.options.testSeams ?? {},
            dropLater: (id) => this.dropLater(id),
            ...(this.options.readBackWorkersFrom !== undefined && {
              readBackWorkersFrom: this.options.readBackWorkersFrom,
            }),
          },
          {
            throttled: perSecond > 0,
            operationId: ctx.operationId,
            sampleSeed: seed,
            sampleSize: DRILL_SAMPLE_SIZE,
            restore: {
              tenant: ctx.tenant,
              signal: ctx.signal,
              lockedBy: null,
              progress: (done, total, message) =>
                ctx.progress({ done, total, unit: 'entries', message: `${backupId}: ${message}` }),
              pace: async (applied) => {
                await background.yield();
                await applyPacer(applied);
              },
            },
            paceRead: async (read) => {
              ctx.signal.throwIfAborted();
              await background.yield();
              readPacer ??= createReadPacer(perSecond, ctx.signal);
              await readPacer(read);
            },
          },
          chain,
        );
        results.push(result);
      }
    } finally {
      background.release();
    }
    const finishedAt = this.clock();
    const setId = request.setId ?? null;
    for (const result of results) {
      await insertDrill(storage, {
        tenant: ctx.tenant,
        operationId: ctx.operationId,
        backupId: result.backupId,
        setId,
        treeName: result.treeName,
        keyPrefix: result.keyPrefix,
        outcome: result.outcome,
        reasonKind: result.reasonKind,
        reason: result.reason,
        firstDifferingKey: result.firstDifferingKey,
        entries: result.entries,
        durationMs: result.durationMs,
        sampleSeed: String(seed),
        sampleSize: DRILL_SAMPLE_SIZE,
        startedAt: started,
        finishedAt,
        startedBy: ctx.createdBy,
      });
    }
    return summarise(results, { setId, seed, durationMs: finishedAt - started });
  }
}

/** The drill's result: the first failed backup's reason, or PROVEN over all of them. */
function summarise(
  results: DrillBackupResult[],
  facts: { setId: string | null; seed: number; durationMs: number },
): RestoreDrillResult {
  const entries = results.reduce((n, r) => n + r.entries, 0);
  const failure = results.find((r) => r.outcome === 'FAILED');
  const seconds = Math.max(facts.durationMs, 1) / 1000;
  return {
    outcome: failure ? 'FAILED' : 'PROVEN',
    reasonKind: failure?.reasonKind ?? 'NONE',
    reason: failure
      ? results.length > 1
        ? `backup ${failure.backupId} of ${failure.treeName}: ${failure.reason}`
        : failure.reason
      : results.map((r) => r.reason).join('; '),
    firstDifferingKey: failure?.firstDifferingKey ?? null,
    setId: facts.setId,
    backups: results,
    entries,
    durationMs: facts.durationMs,
    entriesPerSecond: Math.round(entries / seconds),
    sampleSeed: facts.seed,
    sampleSize: DRILL_SAMPLE_SIZE,
  };
}

/** A drill request checked: exactly one of backup id and set id; a sane throttle and seed. */
export function validateDrillRequest(request: RestoreDrillRequest): RestoreDrillRequest {
  const hasBackup = request.backupId !== undefined && request.backupId !== '';
  const hasSet = request.setId !== undefined && request.setId !== '';
  if (hasBackup === hasSet) {
    throw invalidArgument('backup_id', 'give exactly one of backup_id and set_id');
  }
  const perSecond = request.maxEntriesPerSecond ?? 0;
  if (!Number.isInteger(perSecond) || perSecond < 0 || perSecond > MAX_PER_SECOND) {
    throw invalidArgument('max_entries_per_second', `an integer from 0 to ${MAX_PER_SECOND}`);
  }
  const seed = request.sampleSeed;
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0 || seed >= 2 ** 31)) {
    throw invalidArgument('sample_seed', 'an integer from 0 to 2^31 − 1');
  }
  return {
    ...(hasBackup && { backupId: validateBackupId(request.backupId) }),
    ...(hasSet && { setId: validateBackupId(request.setId, 'set_id') }),
    ...(perSecond > 0 && { maxEntriesPerSecond: perSecond }),
    ...(seed !== undefined && { sampleSeed: seed }),
  };
}
