// Rows 22–23 (issue 25): a full capture to S3 against the same capture to the directory store,
// and a restore from S3 against the same restore from the directory — same tree, same database,
// same run. The S3 server is a real `rclone serve s3` on 127.0.0.1 over its own temp directory.
//
// The artifact store is a server setting, so each round starts a server over the SAME storage
// location with one store or the other (never both at once: the other's runner could claim the
// operation). Rounds alternate which store goes first, and each side keeps its best round: on a
// shared machine, bursts of other work only ever slow a round down.
import { StoreRestoreMode } from '@store/contract';
import type { Dialect } from '../../server/src/storage/database.js';
import {
  countLiveEntries,
  deletePhysicalTreeEntries,
} from '../../server/src/storage/data/physical-tree-store.js';
import { resolveTree } from '../../server/src/storage/data/tree-store.js';
import { startTestS3Server } from '../../server/test/support/s3-server.js';
import {
  newStorageLocation,
  removeStorageLocation,
} from '../../server/test/support/test-storage.js';
import { startBenchServer, TENANT, timedOperation } from '../lib/bench-server.js';
import { openRawDb, type RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { seedTree } from '../lib/seed-tree.js';

const TREE = 'bench-store';
type Store = 'directory' | 'S3';

interface Round {
  captureMs: number;
  restoreMs: number;
  /** CPU of this process (server and bench) during each: unlike wall time, load hardly moves it. */
  captureCpuMs: number;
  restoreCpuMs: number;
  artifactBytes: number;
}

/** `fn` with the CPU time (user + system) this process spent while it ran. */
async function withCpu<T>(fn: () => Promise<T>): Promise<T & { cpuMs: number }> {
  const before = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(before);
  return { ...value, cpuMs: (used.user + used.system) / 1000 };
}

export async function captureRestoreS3Rows(
  dialect: Dialect,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const s3 = await startTestS3Server();
  // The server runs in this process: the SDK's provider chain reads the credentials from here.
  process.env.AWS_ACCESS_KEY_ID = s3.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = s3.secretAccessKey;
  const location = newStorageLocation(dialect);
  // Opened once the first server has made and migrated the database.
  let raw: RawDb | undefined;
  const storeEnv: Record<Store, Record<string, string>> = {
    directory: {},
    S3: s3.env('bench-capture'),
  };

  /** One capture and one restore of the tree through a server on `store`. */
  async function round(store: Store, n: number): Promise<Round> {
    const s = await startBenchServer(dialect, storeEnv[store], location);
    try {
      const storage = s.t.server.storage;
      if (!raw) {
        raw = await openRawDb(location);
        await seedTree(storage, raw, TENANT, TREE, sizes.entries);
        log(`seeded ${sizes.entries} entries`);
      }
      await raw.checkpoint();
      const capture = await withCpu(() =>
        timedOperation(s, () =>
          s.backup.startBackup({ name: `bench ${store} ${n}`, scope: { treeId: TREE } }),
        ),
      );
      if (capture.value.result.case !== 'capture') throw new Error('no capture result');
      const { backupId, manifest } = capture.value.result.value;
      if (Number(manifest?.entryCount) !== sizes.entries)
        throw new Error(`the ${store} capture holds ${manifest?.entryCount} entries`);

      await raw.checkpoint();
      const target = `${TREE}-restored-${store.toLowerCase()}-${n}`;
      const restore = await withCpu(() =>
        timedOperation(s, () =>
          s.backup.startRestore({
            backupId,
            mode: StoreRestoreMode.NEW_TREE,
            targetTreeId: target,
          }),
        ),
      );
      const restored = await resolveTree(storage, TENANT, target);
      if (!restored || (await countLiveEntries(storage, restored.physicalTreeId)) !== sizes.entries)
        throw new Error(`the tree restored from ${store} does not hold every entry`);
      // Later rounds should not restore into a database that grew by every earlier round.
      await deletePhysicalTreeEntries(storage, restored.physicalTreeId);
      const artifactBytes = Number(manifest?.byteSize ?? 0);
      log(
        `${store} round ${n}: capture ${capture.ms.toFixed(0)} ms (CPU ${capture.cpuMs.toFixed(0)}), ` +
          `restore ${restore.ms.toFixed(0)} ms (CPU ${restore.cpuMs.toFixed(0)}), ` +
          `${(artifactBytes / 1e6).toFixed(1)} MB stored`,
      );
      return {
        captureMs: capture.ms,
        restoreMs: restore.ms,
        captureCpuMs: capture.cpuMs,
        restoreCpuMs: restore.cpuMs,
        artifactBytes,
      };
    } finally {
      // Stop only: the next round's server opens the same location.
      await s.t.server.stop();
    }
  }

  const runs: Record<Store, Round[]> = { directory: [], S3: [] };
  try {
    log(`S3 server at ${s3.endpoint}`);
    for (let n = 1; n <= sizes.storeRounds; n++) {
      const order: Store[] = n % 2 === 1 ? ['directory', 'S3'] : ['S3', 'directory'];
      for (const store of order) runs[store].push(await round(store, n));
    }
  } finally {
    await raw?.close();
    await removeStorageLocation(location);
    await s3.close();
  }

  const best = (store: Store, pick: (r: Round) => number) => Math.min(...runs[store].map(pick));
  const all = (store: Store, pick: (r: Round) => number) =>
    runs[store].map((r) => pick(r).toFixed(0)).join(', ');
  const perSecond = (ms: number) => (sizes.entries * 1000) / ms;
  const mb = (runs.S3[0]?.artifactBytes ?? 0) / 1e6;
  const count = sizes.entries.toLocaleString('en-US');
  const row = (
    n: number,
    name: string,
    pick: (r: Round) => number,
    cpu: (r: Round) => number,
    verb: string,
  ): BenchRow => {
    const s3Rate = perSecond(best('S3', pick));
    const directoryRate = perSecond(best('directory', pick));
    return {
      row: n,
      name,
      dialect,
      figure: s3Rate,
      unit: 'entries/s',
      detail: `best of ${all('S3', pick)} ms, ${mb.toFixed(1)} MB stored`,
      baselineName: `${verb} the directory store (best of ${all('directory', pick)} ms)`,
      baseline: directoryRate,
      ratio: s3Rate / directoryRate,
      target: { kind: 'min', value: 0.8 },
      note:
        `CPU of this process, best round: S3 ${best('S3', cpu).toFixed(0)} ms ` +
        `(${all('S3', cpu)}), directory ${best('directory', cpu).toFixed(0)} ms ` +
        `(${all('directory', cpu)}); rclone's own CPU not counted`,
    };
  };
  return [
    row(
      22,
      `full capture to S3, ${count} entries`,
      (r) => r.captureMs,
      (r) => r.captureCpuMs,
      'the same capture to',
    ),
    row(
      23,
      `restore (NEW_TREE) from S3, ${count} entries`,
      (r) => r.restoreMs,
      (r) => r.restoreCpuMs,
      'restore from',
    ),
  ];
}
