import { availableParallelism } from 'node:os';
import {
  liveValuesIn,
  scratchTreeName,
} from '../../../storage/backup/drills/restore-drill-store.js';
import type { Storage } from '../../../storage/database.js';
import { createPhysicalTree, dropPhysicalTree } from '../../../storage/data/physical-tree-store.js';
import { openScratchEntries } from '../../../storage/data/scratch-entries.js';
import { StoreError } from '../../errors.js';
import { parseContentDigest } from '../capture/content-digest.js';
import type { ManifestChain } from '../restore/chain-source.js';
import type { RestoreContext, RestoreService } from '../restore/restore-service.js';
import { withReadSnapshot } from '../../../storage/backup/backup-snapshot.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { DrillSample } from './drill-sample.js';
import { digestOfScratchTree } from './read-back-digest.js';
import type { DrillBackupResult, DrillTestSeams } from './drill-types.js';

/** Entries a drill applies per batch (as a restore's default). */
const APPLY_BATCH = 1000;

/**
 * From this many restored entries an unthrottled SQLite drill reads back on worker threads: a
 * worker's start (tens of ms) is then a small share of the read.
 */
export const SQLITE_READ_BACK_WORKERS_FROM = 20_000;

export interface BackupDrillDeps {
  storage: Storage;
  restores: RestoreService;
  clock: () => number;
  seams: DrillTestSeams;
  /**
   * Takes over the scratch tree's drop once the drill has its result (or failed): the drop then
   * runs after it, not inside it. Absent, the drill drops the tree before it returns.
   */
  dropLater?: (physicalTreeId: string) => void;
  /** Overrides SQLITE_READ_BACK_WORKERS_FROM (tests reach the worker path with small trees). */
  readBackWorkersFrom?: number;
}

export interface BackupDrillRun {
  operationId: string;
  restore: RestoreContext;
  sampleSeed: number;
  sampleSize: number;
  /** Awaited after each chunk of the digest's read-back (the drill's throttle). */
  paceRead: (entriesSoFar: number) => Promise<void>;
  /** A throttled drill (max entries a second) reads back in paced chunks, never on workers. */
  throttled: boolean;
}

/**
 * Drills one backup: restores its chain into a scratch physical tree that no logical tree points
 * at, recomputes the content digest from the database, compares it with the capture's, checks a
 * sample of entries against what the artifacts say, and drops the scratch tree whatever happens
 * (itself, or through deps.dropLater once the result is known; a crash leaves a leftover swept
 * by name). A problem the drill
 * finds is its result (FAILED with the reason), not an error; a cancel or a failing database is
 * an error.
 */
export async function drillBackup(
  deps: BackupDrillDeps,
  run: BackupDrillRun,
  chain: ManifestChain,
): Promise<DrillBackupResult> {
  const started = deps.clock();
  const target = chain[chain.length - 1];
  if (!target) throw new Error('empty chain');
  const keyPrefix = target.keyPrefix ?? '';
  const base = { backupId: target.backupId, treeName: target.treeName, keyPrefix };
  const failed = (
    reasonKind: DrillBackupResult['reasonKind'],
    reason: string,
    entries: number,
    firstDifferingKey: string | null = null,
  ): DrillBackupResult => ({
    ...base,
    outcome: 'FAILED',
    reasonKind,
    reason,
    firstDifferingKey,
    entries,
    durationMs: deps.clock() - started,
  });

  const captured = parseContentDigest(target.contentDigest);
  if (!captured) {
    return failed(
      'NO_DIGEST',
      `no digest recorded: backup ${target.backupId} was captured before content digests`,
      0,
    );
  }
  try {
    await deps.restores.verifyChain(run.restore, chain);
  } catch (error) {
    if (error instanceof StoreError && error.code === 'data_loss') {
      return failed('UNREADABLE_ARTIFACT', `unreadable artifact: ${error.message}`, 0);
    }
    throw error;
  }

  const physicalTreeId = await createPhysicalTree(deps.storage, {
    tenant: run.restore.tenant,
    treeName: scratchTreeName(run.operationId),
    now: deps.clock(),
  });
  try {
    // PostgreSQL: an unlogged table of the scratch tree's own (scratch-entries.ts), the same
    // loader writing it; SQLite: the entries table.
    const scratch = await openScratchEntries(deps.storage, physicalTreeId);
    const sample = new DrillSample(run.sampleSeed, run.sampleSize);
    const keep = deps.seams.keepRecord;
    const total = chain.reduce((n, m) => n + m.entryCount, 0);
    // The key halfway through the chain's first link (a full backup, in key order): where the
    // read-back splits the tree in two, without a scan to find the middle (digestOfScratchTree).
    const middleAt = Math.floor((chain[0]?.entryCount ?? 0) / 2);
    let seen = 0;
    let middleKey: string | undefined;
    let applied: number;
    try {
      applied = await deps.restores.apply(run.restore, chain, {
        physicalTreeId,
        prefix: keyPrefix,
        batchSize: APPLY_BATCH,
        total,
        keepRecord: (record) => {
          if (seen++ === middleAt) middleKey = record.key;
          sample.see(record);
          return keep ? keep(record) : true;
        },
        into: scratch,
      });
    } catch (error) {
      // Verified bytes that still do not read back (changed since the verify) are unreadable.
      if (error instanceof StoreError && error.code === 'data_loss') {
        return failed('UNREADABLE_ARTIFACT', `unreadable artifact: ${error.message}`, 0);
      }
      throw error;
    }
    await deps.seams.beforeCompare?.(physicalTreeId, scratch);

    run.restore.progress(applied, applied, `reading back the restored ${target.treeName}`);
    const sqliteWorkers = readBackWorkers(deps, run, applied);
    const { restored, differing } = await withReadSnapshot(deps.storage, async (snapshot) => {
      const view: TreeDb = { ...snapshot, postgresEntriesTable: scratch.postgresEntriesTable };
      return {
        differing: await firstDifferingSampled(view, physicalTreeId, sample),
        restored: await digestOfScratchTree(view, physicalTreeId, keyPrefix, {
          signal: run.restore.signal,
          afterChunk: run.paceRead,
          expectedEntries: applied,
          middleKey,
          sqliteWorkers,
        }),
      };
    });
    const parts = parseContentDigest(restored.toString());
    if (parts?.count !== captured.count) {
      return failed(
        'COUNT',
        `count differs: the restore holds ${parts?.count ?? 0} entries, the capture recorded ` +
          `${captured.count}` +
          (differing === null ? '' : `; first differing sampled key ${JSON.stringify(differing)}`),
        applied,
        differing,
      );
    }
    if (parts.sumHex !== captured.sumHex) {
      return failed(
        'DIGEST',
        `content digest differs over ${captured.count} entries` +
          (differing === null
            ? ' (no sampled key differs)'
            : `; first differing sampled key ${JSON.stringify(differing)}`),
        applied,
        differing,
      );
    }
    if (differing !== null) {
      return failed(
        'SAMPLE',
        `sampled entry ${JSON.stringify(differing)} differs from its artifact`,
        applied,
        differing,
      );
    }
    return {
      ...base,
      outcome: 'PROVEN',
      reasonKind: 'NONE',
      reason:
        `restored ${captured.count} entries; content digest and ` +
        `${sample.entries().length} sampled entries match`,
      firstDifferingKey: null,
      entries: applied,
      durationMs: deps.clock() - started,
    };
  } finally {
    if (deps.dropLater) deps.dropLater(physicalTreeId);
    else await dropPhysicalTree(deps.storage, physicalTreeId);
  }
}

/**
 * The worker threads a SQLite read-back of `entries` entries runs on, or undefined to read on
 * this thread (PostgreSQL, a throttled drill, a small tree).
 */
function readBackWorkers(
  deps: BackupDrillDeps,
  run: BackupDrillRun,
  entries: number,
): { file: string; workers: number } | undefined {
  const file = deps.storage.sqliteFile;
  if (deps.storage.dialect !== 'sqlite' || !file || run.throttled) return undefined;
  if (entries < (deps.readBackWorkersFrom ?? SQLITE_READ_BACK_WORKERS_FROM)) return undefined;
  return { file, workers: Math.min(2, availableParallelism()) };
}

/** The first sampled key (in key order) whose restored value is not the chain's; else null. */
async function firstDifferingSampled(
  storage: TreeDb,
  physicalTreeId: string,
  sample: DrillSample,
): Promise<string | null> {
  const expected = sample.entries();
  const actual = await liveValuesIn(
    storage,
    physicalTreeId,
    expected.map((e) => e.key),
  );
  const differing = expected.find((e) => (actual.get(e.key) ?? null) !== e.valueJson);
  return differing?.key ?? null;
}
