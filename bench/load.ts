// `npm run load [-- --seconds=60 --pollers=200 --entries=50000 --dialect=sqlite]`: a bounded
// loopback load test. 200 concurrent pollers (status polls, catalog and operation lists over
// gRPC-Web and gRPC, in worker threads) run while captures and restores run back to back; at the
// end it prints the errors (must be 0), the p99 the pollers held, and whether every restored tree
// equals its source. Exits 1 on any error or mismatch. Everything stops by itself.
import { parseArgs } from 'node:util';
import { StoreRestoreMode } from '@store/contract';
import type { Dialect } from '../server/src/storage/database.js';
import { resolveTree } from '../server/src/storage/data/tree-store.js';
import { TENANT, BENCH_TOKEN, startBenchServer, type BenchServer } from './lib/bench-server.js';
import type { LoadResult } from './lib/load-loop.js';
import { openRawDb, type RawDb } from './lib/raw-db.js';
import { seedTree } from './lib/seed-tree.js';
import { runLoadInWorker } from './lib/worker-load.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    pollers: { type: 'string', default: '200' },
    entries: { type: 'string', default: '50000' },
    dialect: { type: 'string', default: 'sqlite' },
  },
});
const seconds = Number(values.seconds);
const pollers = Number(values.pollers);
const entries = Number(values.entries);
const dialect = values.dialect as Dialect;
if (!(seconds > 0 && pollers > 0 && entries > 0) || !['sqlite', 'postgres'].includes(dialect)) {
  console.error(
    'usage: load.ts [--seconds=60] [--pollers=200] [--entries=50000] [--dialect=sqlite|postgres]',
  );
  process.exit(2);
}

const SOURCE = 'load-source';

/** Every row of a physical tree, key → value, straight from the database. */
async function snapshotOf(raw: RawDb, physicalTreeId: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  await raw.scanEntries(physicalTreeId, async (rows) => {
    for (const row of rows) out.set(row.key, row.valueJson);
  });
  return out;
}

function sameTree(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of a) if (b.get(key) !== value) return false;
  return true;
}

interface OperationTally {
  captures: number;
  restores: number;
  verified: number;
  errors: string[];
}

/** Captures and restores back to back until `deadline`, checking each restored tree. */
async function runOperations(
  s: BenchServer,
  raw: RawDb,
  source: Map<string, string>,
  firstCapture: Promise<string>,
  deadline: number,
): Promise<OperationTally> {
  const tally: OperationTally = { captures: 0, restores: 0, verified: 0, errors: [] };
  let backupId: string | undefined;
  try {
    backupId = await firstCapture;
    tally.captures += 1;
  } catch (error) {
    tally.errors.push(`first capture: ${String(error)}`);
  }
  for (let round = 0; Date.now() < deadline && backupId; round++) {
    try {
      const target = `load-restored-${round}`;
      // A capture and a restore run at the same time, as the issue asks.
      const [capture] = await Promise.all([
        s.backup
          .startBackup({ name: `load ${round}`, scope: { treeId: SOURCE } })
          .then((h) => s.finish(h.operationId, 10 * 60_000)),
        s.backup
          .startRestore({ backupId, mode: StoreRestoreMode.NEW_TREE, targetTreeId: target })
          .then((h) => s.finish(h.operationId, 10 * 60_000)),
      ]);
      if (capture.result.case !== 'capture') throw new Error('capture gave no result');
      if (Number(capture.result.value.manifest?.entryCount) !== source.size) {
        throw new Error(`capture holds ${capture.result.value.manifest?.entryCount} entries`);
      }
      tally.captures += 1;
      tally.restores += 1;
      backupId = capture.result.value.backupId;
      const restored = await resolveTree(s.t.server.storage, TENANT, target);
      if (!restored) throw new Error(`restored tree ${target} does not exist`);
      if (!sameTree(source, await snapshotOf(raw, restored.physicalTreeId))) {
        throw new Error(`restored tree ${target} differs from its source`);
      }
      tally.verified += 1;
    } catch (error) {
      tally.errors.push(error instanceof Error ? error.message : String(error));
    }
  }
  return tally;
}

const s = await startBenchServer(dialect);
const raw = await openRawDb(s.t.location);
let failed: boolean;
try {
  const tree = await seedTree(s.t.server.storage, raw, TENANT, SOURCE, entries);
  const source = await snapshotOf(raw, tree.physicalTreeId);
  console.log(`${dialect}: ${entries} entries seeded; ${pollers} pollers for ${seconds} s`);

  const first = await s.backup.startBackup({ name: 'load first', scope: { treeId: SOURCE } });
  const deadline = Date.now() + seconds * 1000;
  const half = Math.ceil(pollers / 2);
  const job = {
    operationId: first.operationId,
    plan: 'mixed',
    token: BENCH_TOKEN,
    seconds,
  } as const;
  const [web, grpc, operations] = await Promise.all([
    runLoadInWorker({
      ...job,
      transport: 'grpcWeb',
      baseUrl: s.t.server.httpUrl,
      concurrency: half,
    }),
    runLoadInWorker({
      ...job,
      transport: 'grpc',
      baseUrl: s.t.server.grpcUrl,
      concurrency: pollers - half,
    }),
    runOperations(
      s,
      raw,
      source,
      s.finish(first.operationId, 10 * 60_000).then((status) => {
        if (status.result.case !== 'capture') throw new Error('no capture result');
        return status.result.value.backupId;
      }),
      deadline,
    ),
  ]);

  const show = (name: string, r: LoadResult) =>
    `${name}: ${r.requests} calls, ${r.perSecond.toFixed(0)}/s, p50 ${r.p50Ms.toFixed(1)} ms, ` +
    `p99 ${r.p99Ms.toFixed(1)} ms, max ${r.maxMs.toFixed(0)} ms, errors ${r.errors}` +
    (r.firstError ? ` (first: ${r.firstError})` : '');
  console.log(show('gRPC-Web pollers', web));
  console.log(show('gRPC pollers', grpc));
  console.log(
    `operations: ${operations.captures} captures, ${operations.restores} restores, ` +
      `${operations.verified} restored trees equal to their source, errors ${operations.errors.length}`,
  );
  for (const e of operations.errors.slice(0, 5)) console.log(`  ${e}`);
  const errors = web.errors + grpc.errors + operations.errors.length;
  const ok = errors === 0 && operations.verified > 0 && operations.verified === operations.restores;
  console.log(
    `\n${ok ? 'PASS' : 'FAIL'}: ${errors} errors, p99 held ${Math.max(web.p99Ms, grpc.p99Ms).toFixed(1)} ms, ` +
      `${operations.verified}/${operations.restores} restores verified`,
  );
  failed = !ok;
} finally {
  await raw.close();
  await s.dispose();
}
process.exit(failed ? 1 : 0);
