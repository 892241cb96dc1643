// `node --import tsx bench/restore-drill.ts [--entries=200000] [--rounds=3] [--dialects=sqlite,postgres]`:
// what a restore drill (issue 36 bullet 2) costs next to a plain restore of the same backup.
// Engine level: one full capture of a seeded tree, then alternating a restore into a new tree and
// a drill (restore into a scratch tree, digest read-back, spot-check, drop), best round of each,
// with the event loop's delay p99 during the drills. Ratios are reported, never asserted
// (docs/performance.md).
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BackupEngine } from '../server/src/engines/backup/backup-engine.js';
import type { CaptureResult } from '../server/src/engines/backup/backup-types.js';
import type { RestoreDrillResult } from '../server/src/engines/backup/drills/drill-types.js';
import { OperationRunner } from '../server/src/engines/operations/operation-runner.js';
import type { OperationRecord } from '../server/src/engines/operations/types.js';
import type { Dialect } from '../server/src/storage/database.js';
import { openTestStorage } from '../server/test/support/test-storage.js';
import { openRawDb } from './lib/raw-db.js';
import { seedTree } from './lib/seed-tree.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '200000' },
    rounds: { type: 'string', default: '3' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
  },
});
const entries = Number(values.entries);
const rounds = Number(values.rounds);
const TENANT = 'bench';
const WHO = { tenant: TENANT, createdBy: 'bench' };

async function measure(dialect: Dialect): Promise<void> {
  const storage = await openTestStorage(dialect);
  const raw = await openRawDb(storage.location);
  const artifactsDir = mkdtempSync(join(tmpdir(), 'drill-bench-'));
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
    await seedTree(storage, raw, TENANT, 'big', entries);
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
    const backupId = captured.backupId;
    let restores = 0;
    const restore = async () => {
      const started = performance.now();
      await finish(
        await engine.startRestore(
          WHO,
          { backupId, targetTreeId: `r${restores++}`, mode: 'NEW_TREE', applyBatchSize: 1000 },
          false,
        ),
      );
      return performance.now() - started;
    };
    const delay = monitorEventLoopDelay({ resolution: 10 });
    const drill = async () => {
      const started = performance.now();
      delay.enable();
      const result = (await finish(
        await engine.drills.start(WHO, { backupId }),
      )) as RestoreDrillResult;
      delay.disable();
      if (result.outcome !== 'PROVEN') throw new Error(`drill ${result.outcome}: ${result.reason}`);
      return performance.now() - started;
    };
    await restore(); // warm-up: caches and JIT
    await drill();
    delay.reset();
    const best = { restore: Infinity, drill: Infinity };
    // Alternating, best of each: the machine is shared, so the best round is the least disturbed.
    for (let round = 0; round < rounds; round++) {
      best.restore = Math.min(best.restore, await restore());
      best.drill = Math.min(best.drill, await drill());
    }
    console.log(
      `${dialect.padEnd(8)} ${entries} entries  restore ${best.restore.toFixed(0).padStart(6)} ms` +
        `  drill ${best.drill.toFixed(0).padStart(6)} ms  drill speed / restore speed ` +
        `${(best.restore / best.drill).toFixed(2)}  event-loop delay p99 during drills ` +
        `${(delay.percentile(99) / 1e6).toFixed(1)} ms`,
    );
  } finally {
    await runner.stop({ graceMs: 0 });
    await raw.close();
    await storage.dispose();
    rmSync(artifactsDir, { recursive: true, force: true });
  }
}

for (const dialect of values.dialects.split(',') as Dialect[]) await measure(dialect);
