// Rows 8–9 (issue 17, writes): group commit and PutEntries through the real server over native
// gRPC, each against a baseline measured in this same run.
// Row 8: puts from 16 concurrent callers into one tree vs one caller (target ≥ 8×): without
//        group commit each put pays its own durable commit, so 16 callers were no faster.
// Row 9: PutEntries of 1 000-entry batches vs a NEW_TREE restore of as many entries (≥ 0.5).
// Each row also measures its ceiling: the same client against bare handlers that answer at once,
// and the server thread's CPU per entry on both, so a miss says whether the server or the
// machine stood in the way.
import { StoreRestoreMode } from '@store/contract';
import { bareWrites, startBareServer } from '../lib/bare-server.js';
import { BENCH_TOKEN, TENANT, type BenchServer } from '../lib/bench-server.js';
import type { RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { seedTree } from '../lib/seed-tree.js';
import { timed } from '../lib/stats.js';
import { withMainThreadCpu } from '../lib/thread-cpu.js';
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
  const bare = await startBareServer(bareWrites);
  try {
    return await measure(s, raw, sizes, bare.grpcUrl, log);
  } finally {
    await bare.close();
  }
}

/** Where a write job goes, and with which client. */
type Endpoint = Pick<WriteJob, 'baseUrl' | 'token' | 'client'>;

interface Rate {
  rate: number;
  ms: number;
  /** The server thread's CPU per entry, µs (null off Linux). */
  serverUs: number | null;
}

async function measure(
  s: BenchServer,
  raw: RawDb,
  sizes: Sizes,
  bareUrl: string,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const seconds = sizes.unarySeconds;
  // The lean client (see write-worker.ts); connect-node's figures are kept beside row 8.
  const real: Endpoint = { baseUrl: s.t.server.grpcUrl, token: BENCH_TOKEN, client: 'lean' };
  const bare: Endpoint = { ...real, baseUrl: bareUrl };
  const connect: Endpoint = { ...real, client: 'connect' };
  const rate = async (job: WriteJob): Promise<Rate> => {
    const { result, cpuUs } = await withMainThreadCpu(() =>
      runWritesInWorker({ ...job, warmUp: !sizes.smoke }),
    );
    return {
      rate: (result.entries * 1000) / result.ms,
      ms: result.ms,
      serverUs: cpuUs === null ? null : cpuUs / result.entries,
    };
  };
  const puts = (to: Endpoint, treeId: string, callers: number, s: number) =>
    rate({ ...to, treeId, kind: 'puts', callers, seconds: s });
  const putEntries = (to: Endpoint, treeId: string, count: number) =>
    rate({ ...to, treeId, kind: 'putEntries', count, batch: BATCH, inFlight: IN_FLIGHT });
  // Unmeasured: the server's own code is compiled and optimised by V8 while it runs, so without
  // this the one-caller phase, measured first, ran on colder code than the sixteen (a second
  // one-caller phase measured 25 % faster than the first) and the ratio flattered group commit.
  // The smoke skips the warm-up phases (its ratio means little) and connect-node's figures.
  if (!sizes.smoke) {
    await puts(real, 'bench-puts-warm-up', CALLERS, Math.min(2, seconds));
    await puts(real, 'bench-puts-warm-up', 1, Math.min(2, seconds));
  }
  const oneCaller = await puts(real, 'bench-puts-1', 1, seconds);
  log(`1 caller: ${oneCaller.rate.toFixed(0)} puts/s${cpu(oneCaller, 'put')}`);
  const manyCallers = await puts(real, 'bench-puts-16', CALLERS, seconds);
  log(`${CALLERS} callers: ${manyCallers.rate.toFixed(0)} puts/s${cpu(manyCallers, 'put')}`);
  if (!sizes.smoke) await puts(bare, 'bare-warm-up', CALLERS, Math.min(2, seconds));
  const bareCallers = await puts(bare, 'bare', CALLERS, seconds);
  log(
    `${CALLERS} callers, bare handler: ${bareCallers.rate.toFixed(0)} puts/s${cpu(bareCallers, 'put')}`,
  );
  let connectNote: string | undefined;
  if (!sizes.smoke) {
    const connectOne = await puts(connect, 'bench-puts-connect-1', 1, seconds);
    const connectMany = await puts(connect, 'bench-puts-connect-16', CALLERS, seconds);
    connectNote =
      `connect-node's client: ${CALLERS} callers ${connectMany.rate.toFixed(0)} puts/s, ` +
      `1 caller ${connectOne.rate.toFixed(0)}: ${(connectMany.rate / connectOne.rate).toFixed(2)}×`;
    log(connectNote);
  }

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
  const imported = await putEntries(real, 'bench-import', count);
  log(
    `PutEntries of ${count} entries: ${imported.rate.toFixed(0)} entries/s${cpu(imported, 'entry')}`,
  );
  const bareImport = await putEntries(bare, 'bare', count);
  log(
    `PutEntries, bare handler: ${bareImport.rate.toFixed(0)} entries/s${cpu(bareImport, 'entry')}`,
  );

  return [
    {
      row: 8,
      name: `PutEntry, ${CALLERS} concurrent callers into one tree`,
      dialect: s.dialect,
      figure: manyCallers.rate,
      unit: 'puts/s',
      detail: `${seconds} s each${cpu(manyCallers, 'put')}`,
      baselineName: '1 caller',
      baseline: oneCaller.rate,
      ratio: manyCallers.rate / oneCaller.rate,
      target: { kind: 'min', value: 8 },
      ...(connectNote !== undefined && { note: connectNote }),
      ceiling: {
        ratio: bareCallers.rate / oneCaller.rate,
        detail: `bare handler, ${CALLERS} callers: ${bareCallers.rate.toFixed(0)} puts/s${cpu(bareCallers, 'put')}`,
      },
    },
    {
      row: 9,
      name: `PutEntries, ${BATCH}-entry batches (${count.toLocaleString('en-US')}, ${IN_FLIGHT} in flight)`,
      dialect: s.dialect,
      figure: imported.rate,
      unit: 'entries/s',
      detail: `${(imported.ms / 1000).toFixed(1)} s${cpu(imported, 'entry')}`,
      baselineName: 'restore NEW_TREE, same entries',
      baseline: restoreRate,
      ratio: imported.rate / restoreRate,
      target: { kind: 'min', value: 0.5 },
      ceiling: {
        ratio: bareImport.rate / restoreRate,
        detail: `bare handler: ${bareImport.rate.toFixed(0)} entries/s${cpu(bareImport, 'entry')}`,
      },
    },
  ];
}

const cpu = (r: Rate, unit: string) =>
  r.serverUs === null
    ? ''
    : `, server thread ${r.serverUs.toFixed(r.serverUs < 100 ? 1 : 0)} µs/${unit}`;
