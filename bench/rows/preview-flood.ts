// Row 24 (operation caps and rate limits, docs/security.md): tenant b keeps its previews and
// dry-runs at its caps while tenant a (the bench admin's `default`) puts entries and polls an
// operation's status. Figures: a's PutEntry and status-poll rates as ratios of the same load
// without the flood (alternating rounds, same server, best round each), and the event loop's
// delay p99 during the flood rounds. The callers run in a worker thread (flood-worker.ts), so the
// delay measured here, in the server's thread, is the server's own.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, TreeDataService } from '@store/contract';
import type { Dialect } from '../../server/src/storage/database.js';
import { BENCH_TOKEN, startBenchServer, withToken, type BenchServer } from '../lib/bench-server.js';
import { runFloodRound } from '../lib/flood-round.js';
import { openRawDb, type RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { seedTree } from '../lib/seed-tree.js';

const FLOODER = 'b';
const ROUNDS = 4;
/** b's callers: each its own subject, so the per-caller rate limit leaves b at its tenant caps. */
const FLOODERS = 8;
/** After a refusal a flooder tries again this soon, ignoring retry-after: b stays at its caps. */
const REFUSED_PAUSE_MS = 100;
const WRITERS = 16;
const POLLERS = 4;
const EVENT_LOOP_BUDGET_MS = 50;

interface Round {
  puts: number;
  polls: number;
  loopP99Ms: number;
  started: number;
  refused: number;
}

/**
 * The row on a server of its own with fresh storage, so what earlier rows left (large trees, a
 * long write-ahead log) does not weigh on one round more than another.
 */
export async function previewFloodRows(
  dialect: Dialect,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const s = await startBenchServer(dialect);
  const raw = await openRawDb(s.t.location);
  try {
    return await measure(s, raw, sizes, log);
  } finally {
    await raw.close();
    await s.dispose();
  }
}

async function measure(
  s: BenchServer,
  raw: RawDb,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow[]> {
  const { server } = s.t;
  const seconds = sizes.smoke ? 1 : 5;
  const entries = sizes.smoke ? 2_000 : Math.min(sizes.entries, 100_000);
  await seedTree(server.storage, raw, FLOODER, 'flood', entries);
  const admin = (await server.tokens.issue({ tenant: FLOODER, roles: ['admin'] })).token;
  const transportOf = (token: string) =>
    createGrpcTransport({ baseUrl: server.grpcUrl, interceptors: [withToken(token)] });
  const bAdmin = createClient(BackupControlService, transportOf(admin));
  const handle = await bAdmin.startBackup({ name: 'flood', scope: { treeId: 'flood' } });
  let backupId = '';
  while (!backupId) {
    const op = await server.runner.get(FLOODER, handle.operationId);
    if (op?.state === 'SUCCEEDED') backupId = (op.result as { backupId: string }).backupId;
    else if (op?.finishedAt) throw new Error(`b's capture ended ${op.state}`);
    else await new Promise((r) => setTimeout(r, 50));
  }
  const bTokens = await Promise.all(
    Array.from({ length: FLOODERS }, async () => {
      return (await server.tokens.issue({ tenant: FLOODER, roles: ['viewer'] })).token;
    }),
  );
  log(`b: ${entries} entries backed up; ${FLOODERS} viewers`);

  const data = createClient(TreeDataService, s.grpc);
  await data.putEntry({ treeId: 'flood-a', key: 'first', valueJson: '{}' });
  // a's polls read this operation's status, as the console does while a capture runs.
  const poll = await s.backup.startBackup({ name: 'polled', scope: { treeId: 'flood-a' } });
  await s.finish(poll.operationId);

  /** Cancels what b's flood left queued or running, so a round without it is one. */
  async function drain(): Promise<void> {
    for (;;) {
      const { operations } = await server.runner.list(FLOODER, {
        states: ['QUEUED', 'RUNNING'],
        pageSize: 100,
      });
      if (operations.length === 0) return;
      for (const op of operations) await server.runner.cancel(FLOODER, op.id);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function round(flood: boolean, index: number): Promise<Round> {
    await drain();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const counts = await runFloodRound({
      grpcUrl: server.grpcUrl,
      aToken: BENCH_TOKEN,
      aTree: 'flood-a',
      pollOperationId: poll.operationId,
      bTokens: flood ? bTokens : [],
      bBackupId: backupId,
      bTree: 'flood',
      writers: WRITERS,
      pollers: POLLERS,
      seconds,
      refusedPauseMs: REFUSED_PAUSE_MS,
      round: index,
    });
    delay.disable();
    await drain();
    return { ...counts, loopP99Ms: delay.percentile(99) / 1e6 };
  }

  // A warm-up pair first, not counted for the rates (the code warms up); its flood round counts
  // for the event-loop delay, which must hold throughout.
  const warmFlood = await round(true, 0);
  const warmQuiet = await round(false, 1);
  log(
    `warm-up: flood ${warmFlood.puts.toFixed(0)} puts/s, loop p99 ${warmFlood.loopP99Ms.toFixed(1)} ms; ` +
      `quiet ${warmQuiet.puts.toFixed(0)} puts/s`,
  );
  const flooded: Round[] = [];
  const quiet: Round[] = [];
  // Alternating, the order swapping each round, best round each: bursts of other work on a
  // shared machine only slow a round down.
  for (let i = 0; i < (sizes.smoke ? 1 : ROUNDS); i++) {
    for (const flood of i % 2 === 0 ? [true, false] : [false, true]) {
      const r = await round(flood, 2 + flooded.length + quiet.length);
      (flood ? flooded : quiet).push(r);
      log(
        `${flood ? 'flood' : 'quiet'}: ${r.puts.toFixed(0)} puts/s, ${r.polls.toFixed(0)} polls/s, ` +
          `loop p99 ${r.loopP99Ms.toFixed(1)} ms${flood ? `, b started ${r.started}, refused ${r.refused}` : ''}`,
      );
    }
  }
  const best = (rounds: Round[], key: 'puts' | 'polls') => Math.max(...rounds.map((r) => r[key]));
  // Throughout: the warm-up flood round counts for the delay (not for the rates).
  const loop = Math.max(warmFlood.loopP99Ms, ...flooded.map((r) => r.loopP99Ms));
  const quietLoop = Math.max(...quiet.map((r) => r.loopP99Ms));
  const floodDetail = `b: ${FLOODERS} viewers at their caps, ${flooded.reduce((n, r) => n + r.started, 0)} started, ${flooded.reduce((n, r) => n + r.refused, 0)} refused`;
  const ratioRow = (key: 'puts' | 'polls', what: string, unit: string): BenchRow => ({
    row: 24,
    name: `${what} of tenant a while tenant b floods previews and dry-runs`,
    dialect: s.dialect,
    figure: best(flooded, key),
    unit,
    detail: `best of ${flooded.length}; ${floodDetail}`,
    baselineName: 'the same load without the flood',
    baseline: best(quiet, key),
    ratio: best(flooded, key) / best(quiet, key),
    target: { kind: 'min', value: 0.8 },
  });
  return [
    ratioRow('puts', `PutEntry, ${WRITERS} writers,`, 'puts/s'),
    ratioRow('polls', `status poll, ${POLLERS} callers,`, 'polls/s'),
    {
      row: 24,
      name: "the server's event-loop delay p99 during the flood",
      dialect: s.dialect,
      figure: loop,
      unit: 'ms',
      detail: `worst flood round, the warm-up one (${warmFlood.loopP99Ms.toFixed(1)} ms) included; without the flood ${quietLoop.toFixed(1)} ms`,
      baselineName: 'the budget',
      baseline: EVENT_LOOP_BUDGET_MS,
      ratio: loop / EVENT_LOOP_BUDGET_MS,
      target: { kind: 'max', value: 1 },
    },
  ];
}
