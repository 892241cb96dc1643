// `node --import tsx bench/restore-bulk.ts [--entries=1000000] [--rounds=2] [--dialects=sqlite,postgres]`:
// issue 37 bullet 6 — a restore of a full backup against the database's own bulk path, measured
// on the same rows in the same run, alternating, best round of each:
//   SQLite: the driver's prepared INSERT of every row in one transaction (bench/lib/raw-db.ts);
//   PostgreSQL: `psql \copy (select …) to stdout | psql \copy entries … from stdin` (real processes).
// Both peers load into the product's own `entries` table (its primary key, its sequence index and
// its kept-count triggers), as a restore does. Engine level: the restore is the real engine
// (verification, read, gunzip, decode, load, install), without gRPC. It also prints the event
// loop's delay (p99, max) during the restores. Ratios are reported, never asserted
// (docs/performance.md).
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupEngine } from '../server/src/engines/backup/backup-engine.js';
import type { CaptureResult } from '../server/src/engines/backup/backup-types.js';
import { OperationRunner } from '../server/src/engines/operations/operation-runner.js';
import type { OperationRecord } from '../server/src/engines/operations/types.js';
import type { Dialect } from '../server/src/storage/database.js';
import { checkKeptCounts } from '../server/src/storage/data/kept-counts.js';
import {
  countLiveEntries,
  createPhysicalTree,
  dropPhysicalTree,
} from '../server/src/storage/data/physical-tree-store.js';
import { resolveTree } from '../server/src/storage/data/tree-store.js';
import { openTestStorage } from '../server/test/support/test-storage.js';
import { psqlRestorePeer } from './lib/psql-peers.js';
import { openRawDb, type EntryRow } from './lib/raw-db.js';
import { seedTree } from './lib/seed-tree.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '2' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
  },
});
const entries = Number(values.entries);
const rounds = Number(values.rounds);
const TENANT = 'bench';
/** This process's CPU time (user + system) in ms: on a loaded machine, steadier than wall time. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const WHO = { tenant: TENANT, createdBy: 'bench' };

async function measure(dialect: Dialect): Promise<void> {
  const storage = await openTestStorage(dialect);
  const raw = await openRawDb(storage.location);
  const artifactsDir = mkdtempSync(join(tmpdir(), 'restore-bench-'));
  const runner = new OperationRunner({ storage, pollMs: 5 });
  const engine = new BackupEngine({
    storage,
    runner,
    artifacts: artifactsDir,
    schedulerMinIntervalMs: 1000,
    healthMonitoring: false,
  });
  runner.start();
  try {
    const seeded = await seedTree(storage, raw, TENANT, 'big', entries);
    const finish = async (op: OperationRecord) => {
      for (;;) {
        const now = await runner.get(TENANT, op.id);
        if (now?.finishedAt) {
          if (now.state !== 'SUCCEEDED') throw new Error(`${now.state}: ${now.error?.message}`);
          return now.result;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const captured = (await finish(
      await engine.startCapture(
        WHO,
        { name: 'b', scope: { treeId: 'big' }, pageSize: 0, labels: {} },
        false,
      ),
    )) as CaptureResult;
    // The SQLite peer inserts from memory (the driver loop an admin would write); not measured.
    const rows: EntryRow[] = [];
    if (dialect === 'sqlite') {
      await raw.scanEntries(seeded.physicalTreeId, async (page) => {
        for (const row of page) rows.push(row);
      });
    }
    // One histogram per restore (a re-enabled one counts the pause before it as a delay).
    const delays = { p99: 0, max: 0 };
    // SQLite: the peer and the restore both run in this process, so their CPU compares too.
    const cpu = { restore: [] as number[], peer: [] as number[] };
    let restores = 0;
    const restore = async () => {
      const name = `restored-${restores++}`;
      await raw.checkpoint();
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const cpuStarted = cpuMs();
      const started = performance.now();
      await finish(
        await engine.startRestore(
          WHO,
          { backupId: captured.backupId, targetTreeId: name, mode: 'NEW_TREE', applyBatchSize: 0 },
          false,
        ),
      );
      const ms = performance.now() - started;
      cpu.restore.push(cpuMs() - cpuStarted);
      delay.disable();
      delays.p99 = Math.max(delays.p99, delay.percentile(99) / 1e6);
      delays.max = Math.max(delays.max, delay.max / 1e6);
      const tree = await resolveTree(storage, TENANT, name);
      if (!tree || (await countLiveEntries(storage, tree.physicalTreeId)) !== entries) {
        throw new Error('the restored tree does not hold every entry');
      }
      // Dropped (not measured) so each round starts from the same table size.
      await storage.db
        .deleteFrom('trees')
        .where('tenant', '=', TENANT)
        .where('name', '=', name)
        .execute();
      await dropPhysicalTree(storage, tree.physicalTreeId);
      return ms;
    };
    const peer = async () => {
      const scratch = await createPhysicalTree(storage, {
        tenant: TENANT,
        treeName: 'peer',
        now: Date.now(),
      });
      await raw.checkpoint();
      const cpuStarted = cpuMs();
      const started = performance.now();
      if (dialect === 'postgres') {
        await psqlRestorePeer(storage.location, seeded.physicalTreeId, scratch);
      } else {
        await raw.insertEntries(scratch, rows, Date.now());
      }
      const ms = performance.now() - started;
      cpu.peer.push(cpuMs() - cpuStarted);
      if ((await countLiveEntries(storage, scratch)) !== entries) {
        throw new Error('the peer did not load every row');
      }
      await dropPhysicalTree(storage, scratch);
      return ms;
    };
    const best = { restore: Infinity, peer: Infinity };
    const all = { restore: [] as number[], peer: [] as number[] };
    // Alternating, best of each: the machine is shared, so the best round is the least disturbed.
    for (let round = 0; round < rounds; round++) {
      const p = await peer();
      const r = await restore();
      all.peer.push(p);
      all.restore.push(r);
      best.peer = Math.min(best.peer, p);
      best.restore = Math.min(best.restore, r);
    }
    const mismatches = await checkKeptCounts(storage);
    if (mismatches.length > 0) throw new Error(`kept counts differ: ${JSON.stringify(mismatches)}`);
    const ms = (list: number[]) => list.map((m) => m.toFixed(0)).join('/');
    console.log(
      `${dialect.padEnd(8)} ${entries} entries  restore ${ms(all.restore)} ms  ` +
        `peer ${ms(all.peer)} ms  restore speed / peer speed (best of each) ` +
        `${(best.peer / best.restore).toFixed(3)}  event-loop delay during restores (worst round): ` +
        `p99 ${delays.p99.toFixed(1)} ms, max ${delays.max.toFixed(1)} ms; this process's CPU: ` +
        `restore ${ms(cpu.restore)} ms, peer ${ms(cpu.peer)} ms` +
        (dialect === 'sqlite'
          ? ` (peer CPU / restore CPU, best of each ${(Math.min(...cpu.peer) / Math.min(...cpu.restore)).toFixed(3)})`
          : ' (the peer is other processes)'),
    );
  } finally {
    await runner.stop({ graceMs: 0 });
    await raw.close();
    await storage.dispose();
    rmSync(artifactsDir, { recursive: true, force: true });
  }
}

for (const dialect of values.dialects.split(',') as Dialect[]) await measure(dialect);
