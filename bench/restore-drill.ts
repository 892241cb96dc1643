// `node --import tsx bench/restore-drill.ts [--entries=1000000] [--rounds=3] [--warmup=1] [--dialects=sqlite,postgres]`:
// what a restore drill (issue 36) costs next to a plain restore of the same backup, and whether
// the server keeps answering while it runs. The real server (in this process, as every bench row
// runs it) over native gRPC: one full capture of a seeded tree, then, alternating, a plain
// restore into a new tree (NEW_TREE) and a drill of the same backup (restore into a scratch tree,
// digest read-back, spot-check; the scratch tree's drop follows the result). Each is timed from
// its start call to its finished_at, the drill also until its scratch tree is gone; the best
// round of each gives the ratios. During every restore and drill a gRPC Health Check is
// due every 50 ms on its own HTTP/2 connection (each answer timed from when it was due: p50,
// p99, max), and the event loop's delay is sampled (p99 per round, max). Between rounds,
// untimed: the restored tree is deleted (and on PostgreSQL its dead rows vacuumed) and the
// planner statistics the restore asked for are awaited, so each side starts from the same
// database. Figures and ratios are printed, never asserted (docs/performance.md).
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createClient } from '@connectrpc/connect';
import {
  RestoreDrillOutcome,
  RestoreDrillService,
  StoreOperationState,
  StoreRestoreMode,
  type StoreOperationStatus,
} from '@store/contract';
import { Health } from '@store/contract/gen/grpc/health/v1/health_pb.js';
import { dropPhysicalTree } from '../server/src/storage/data/physical-tree-store.js';
import { entryStatisticsSettled } from '../server/src/storage/data/planner-statistics.js';
import type { Dialect } from '../server/src/storage/database.js';
import { BENCH_TOKEN, startBenchServer, TENANT, type BenchServer } from './lib/bench-server.js';
import { GrpcH2cUnary } from './lib/grpc-h2c-unary.js';
import { openRawDb } from './lib/raw-db.js';
import { seedTree } from './lib/seed-tree.js';
import { unlinkTree } from './lib/unlink-tree.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    rounds: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '1' },
    dialects: { type: 'string', default: 'sqlite,postgres' },
  },
});
const entries = Number(values.entries);
const rounds = Number(values.rounds);
const PROBE_EVERY_MS = 50;

/** Health Checks every 50 ms while `work` runs: each answer's time in ms. */
async function probedWhile<T>(
  health: GrpcH2cUnary,
  work: () => Promise<T>,
): Promise<{ value: T; probes: number[] }> {
  const probes: number[] = [];
  let running = true;
  const prober = (async () => {
    // Each answer is timed from when its probe was due, not from when it went out: a stall
    // between two probes would otherwise go unseen (a checker sending every 50 ms meets it).
    let due = performance.now();
    while (running) {
      await health.call(Health.method.check, { service: '' });
      const answered = performance.now();
      probes.push(answered - due);
      // Behind (a long answer), the next goes at once and the missed slots are not replayed.
      due = Math.max(due + PROBE_EVERY_MS, answered);
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  try {
    return { value: await work(), probes };
  } finally {
    running = false;
    await prober;
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Times an operation from its start call to the server's finished_at (as timedOperation). */
async function timedUntilFinished(
  start: () => Promise<{ operationId: string }>,
  status: (operationId: string) => Promise<StoreOperationStatus | undefined>,
): Promise<{ ms: number; operationId: string }> {
  const begun = Date.now();
  const { operationId } = await start();
  let pause = 20;
  for (;;) {
    const now = await status(operationId);
    if (!now) throw new Error(`operation ${operationId} is not visible`);
    if (now.state > StoreOperationState.SUCCEEDED) {
      throw new Error(`operation ${operationId} ended ${now.state}: ${now.error?.message}`);
    }
    if (now.state === StoreOperationState.SUCCEEDED && now.finishedAt) {
      const finishedMs =
        Number(now.finishedAt.seconds) * 1000 + Math.floor(now.finishedAt.nanos / 1e6);
      return { ms: Math.max(1, finishedMs - begun), operationId };
    }
    await new Promise((r) => setTimeout(r, pause));
    pause = Math.min(50, pause * 1.5);
  }
}

interface Side {
  best: number;
  times: number[];
  probes: number[];
  /** The event loop's delay p99 of each recorded round, and the longest of all (ms). */
  delayP99: number[];
  delayMax: number;
}

function side(): Side {
  return {
    best: Infinity,
    times: [],
    probes: [],
    delayP99: [],
    delayMax: 0,
  };
}

async function measure(dialect: Dialect): Promise<void> {
  const s: BenchServer = await startBenchServer(dialect);
  const storage = s.t.server.storage;
  const raw = await openRawDb(s.t.location);
  const drills = createClient(RestoreDrillService, s.grpc);
  const health = new GrpcH2cUnary(s.t.server.grpcUrl, { authorization: `Bearer ${BENCH_TOKEN}` });
  try {
    await seedTree(storage, raw, TENANT, 'big', entries);
    await raw.checkpoint();
    const backupStatus = async (operationId: string) =>
      (await s.backup.getBackupOperationStatus({ operationId })).status;
    const capture = await timedUntilFinished(
      () => s.backup.startBackup({ name: 'drill bench', scope: { treeId: 'big' } }),
      backupStatus,
    );
    const captured = await s.backup.getBackupOperationStatus({
      operationId: capture.operationId,
    });
    if (captured.status?.result.case !== 'capture') throw new Error('no capture result');
    const backupId = captured.status.result.value.backupId;
    console.log(`${dialect}: seeded ${entries} entries, full capture ${capture.ms} ms`);

    let restores = 0;
    const restore = async () => {
      const target = `r${restores++}`;
      const run = await timedUntilFinished(
        () =>
          s.backup.startRestore({
            backupId,
            mode: StoreRestoreMode.NEW_TREE,
            targetTreeId: target,
          }),
        backupStatus,
      );
      return run.ms;
    };
    /** Untimed and unprobed: the restore's background ANALYZE ends, and its tree goes. */
    const afterRestore = async () => {
      await entryStatisticsSettled(storage);
      const target = `r${restores - 1}`;
      await dropPhysicalTree(storage, await unlinkTree(storage, TENANT, target));
      // What autovacuum does after a million deleted rows (it may be off, as on the bench
      // machine): without it each restore met the dead rows of all before it (5.4 s, then
      // 8.4 s, 8.5 s). A drill's scratch rows leave none (their table is dropped on PostgreSQL).
      if (dialect === 'postgres') await raw.vacuum('entries');
      await raw.checkpoint();
    };
    const drilledUntilDropped: number[] = [];
    const drill = async () => {
      const begun = Date.now();
      const run = await timedUntilFinished(
        () => drills.startRestoreDrill({ target: { case: 'backupId', value: backupId } }),
        async (operationId) => (await drills.getRestoreDrillStatus({ operationId })).status,
      );
      const result = await drills.getRestoreDrillResult({ operationId: run.operationId });
      if (result.outcome !== RestoreDrillOutcome.PROVEN) {
        throw new Error(`drill ${result.outcome}: ${result.reason}`);
      }
      if (Number(result.entries) !== entries) throw new Error(`drill of ${result.entries}`);
      // The scratch tree is dropped after the drill's result, in the background: also timed,
      // from the same start, so the drill's whole cost is on record next to its answer.
      await s.t.server.backup.drills.dropsSettled();
      drilledUntilDropped.push(Date.now() - begun);
      return run.ms;
    };
    const timed = async (which: Side, work: () => Promise<number>, record: boolean) => {
      // A histogram per round: one enabled again after a pause counts the pause as a delay.
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const { value, probes } = await probedWhile(health, work);
      delay.disable();
      if (which === plain) await afterRestore();
      await raw.checkpoint();
      if (!record) return;
      which.times.push(value);
      which.best = Math.min(which.best, value);
      which.probes.push(...probes);
      which.delayP99.push(delay.percentile(99) / 1e6);
      which.delayMax = Math.max(which.delayMax, delay.max / 1e6);
      console.log(`  ${which === plain ? 'restore' : 'drill'} round ${value} ms`);
    };
    const plain = side();
    const drilled = side();
    // Warm-up: caches and JIT (--warmup=0 where a round is long enough not to need it).
    if (values.warmup !== '0') {
      await timed(plain, restore, false);
      await timed(drilled, drill, false);
    }
    // Alternating, best of each: the machine is shared, so the best round is the least disturbed.
    for (let round = 0; round < rounds; round++) {
      await timed(plain, restore, true);
      await timed(drilled, drill, true);
    }
    const line = (name: string, x: Side) =>
      `  ${name.padEnd(8)} best ${x.best.toFixed(0).padStart(6)} ms  rounds ` +
      `${x.times.map((t) => t.toFixed(0)).join(', ')}  health check p50 ${ms(percentile(x.probes, 50))}` +
      ` p99 ${ms(percentile(x.probes, 99))} max ${ms(Math.max(...x.probes))} (${x.probes.length})` +
      `  event-loop delay p99 ${x.delayP99.map((d) => d.toFixed(1)).join(', ')} ms` +
      ` max ${ms(x.delayMax)}`;
    console.log(`${dialect} ${entries} entries`);
    console.log(line('restore', plain));
    console.log(line('drill', drilled));
    console.log(
      `  drill speed / restore speed ${(plain.best / drilled.best).toFixed(2)} (best rounds)`,
    );
    // The warm-up's drill (when there is one) is not a recorded round.
    const recorded = drilledUntilDropped.slice(-rounds);
    const untilDropped = Math.min(...recorded);
    console.log(
      `  drill until its scratch tree is dropped: rounds ${recorded.join(', ')} ms; ` +
        `restore speed / that ${(plain.best / untilDropped).toFixed(2)} (best rounds)`,
    );
  } finally {
    health.close();
    await raw.close();
    await s.dispose();
  }
}

for (const dialect of values.dialects.split(',') as Dialect[]) await measure(dialect);
