// Rows 8–9 (issue 17, writes): group commit and PutEntries through the real server over native
// gRPC, each against a baseline measured in this same run.
// Row 8: puts from 16 concurrent callers into one tree vs one caller (target ≥ 8×): without
//        group commit each put pays its own durable commit, so 16 callers were no faster.
// Row 9: PutEntries of 1 000-entry batches vs a NEW_TREE restore of as many entries (≥ 0.5).
import { StoreRestoreMode } from '@store/contract';
import { BENCH_TOKEN, TENANT, type BenchServer } from '../lib/bench-server.js';
import type { RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { seedTree } from '../lib/seed-tree.js';
import { timed } from '../lib/stats.js';
import { runWritesInWorker, type WriteJob } from '../lib/write-worker.js';

const CALLERS = 16;
const BATCH = 1000;
/** PutEntries calls in flight at once, as the console's import sends them. */
const IN_FLIGHT = 3;

export async function writeRows(
  s: BenchServer,
  raw: RawDb,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const seconds = sizes.unarySeconds;
  const base = { baseUrl: s.t.server.grpcUrl, token: BENCH_TOKEN };
  const rate = async (job: WriteJob) => {
    const result = await runWritesInWorker(job);
    return { rate: (result.entries * 1000) / result.ms, ms: result.ms };
  };
  const puts = (treeId: string, callers: number, s: number) =>
    rate({ ...base, treeId, kind: 'puts', callers, seconds: s });
  const putEntries = (treeId: string, count: number) =>
    rate({ ...base, treeId, kind: 'putEntries', count, batch: BATCH, inFlight: IN_FLIGHT });
  // Unmeasured: the server's own code is compiled and optimised by V8 while it runs, so without
  // this the one-caller phase, measured first, ran on colder code than the sixteen (a second
  // one-caller phase measured 25 % faster than the first) and the ratio flattered group commit.
  await puts('bench-puts-warm-up', CALLERS, Math.min(2, seconds));
  await puts('bench-puts-warm-up', 1, Math.min(2, seconds));
  const oneCaller = (await puts('bench-puts-1', 1, seconds)).rate;
  log(`1 caller: ${oneCaller.toFixed(0)} puts/s`);
  const manyCallers = (await puts('bench-puts-16', CALLERS, seconds)).rate;
  log(`${CALLERS} callers: ${manyCallers.toFixed(0)} puts/s`);

  // The baseline of row 9: a restore of as many entries, in this run, on this server.
  const count = sizes.entries;
  await seedTree(s.t.server.storage, raw, TENANT, 'bench-writes-source', count);
  const captured = await s.finish(
    (await s.backup.startBackup({ name: 'bench writes', scope: { treeId: 'bench-writes-source' } }))
      .operationId,
  );
  if (captured.result.case !== 'capture') throw new Error('the capture gave no result');
  const backupId = captured.result.value.backupId;
  await raw.checkpoint();
  const restore = await timed(async () => {
    const handle = await s.backup.startRestore({
      backupId,
      mode: StoreRestoreMode.NEW_TREE,
      targetTreeId: 'bench-writes-restored',
    });
    return s.finish(handle.operationId);
  });
  const restoreRate = (count * 1000) / restore.ms;
  log(`restore of ${count} entries: ${restoreRate.toFixed(0)} entries/s`);
  await raw.checkpoint();
  const imported = await putEntries('bench-import', count);
  log(`PutEntries of ${count} entries: ${imported.rate.toFixed(0)} entries/s`);

  return [
    {
      row: 8,
      name: `PutEntry, ${CALLERS} concurrent callers into one tree`,
      dialect: s.dialect,
      figure: manyCallers,
      unit: 'puts/s',
      detail: `${seconds} s each`,
      baselineName: '1 caller',
      baseline: oneCaller,
      ratio: manyCallers / oneCaller,
      target: { kind: 'min', value: 8 },
    },
    {
      row: 9,
      name: `PutEntries, ${BATCH}-entry batches (${count.toLocaleString('en-US')}, ${IN_FLIGHT} in flight)`,
      dialect: s.dialect,
      figure: imported.rate,
      unit: 'entries/s',
      detail: `${(imported.ms / 1000).toFixed(1)} s`,
      baselineName: 'restore NEW_TREE, same entries',
      baseline: restoreRate,
      ratio: imported.rate / restoreRate,
      target: { kind: 'min', value: 0.5 },
    },
  ];
}
