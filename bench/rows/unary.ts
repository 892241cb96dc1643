// Row 5: GetBackupOperationStatus with a valid token, over gRPC-Web and gRPC, at 64 concurrent
// callers, against a bare connect-node handler returning the same message, same load loop.
import { createClient } from '@connectrpc/connect';
import { BackupControlService } from '@store/contract';
import { bareStatus, startBareServer } from '../lib/bare-server.js';
import { BENCH_TOKEN, type BenchServer } from '../lib/bench-server.js';
import type { LoadResult } from '../lib/load-loop.js';
import { runLoadInWorker } from '../lib/worker-load.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';

const ROUNDS = 3;
const detail = (r: LoadResult) => `p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms`;

export async function unaryRows(
  s: BenchServer,
  operationId: string,
  sizes: Sizes,
): Promise<BenchRow[]> {
  const real = createClient(BackupControlService, s.grpc);
  const fixed = await real.getBackupOperationStatus({ operationId });
  if (!fixed.status) throw new Error('the status poll found no operation');
  const bare = await startBareServer(bareStatus(fixed));
  // Measured and bare alternate ROUNDS times, each keeping its best round: on a shared machine,
  // load bursts only ever slow a round down, and alternating exposes both to the same bursts.
  const options = {
    concurrency: sizes.unaryConcurrency,
    seconds: sizes.unarySeconds / 2,
    warmupSeconds: Math.min(1, sizes.unarySeconds / 4),
  };
  const best = (runs: LoadResult[]) => runs.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
  // One round a side in the smoke, which only shows the row runs.
  const rounds = sizes.smoke ? 1 : ROUNDS;
  const rows: BenchRow[] = [];
  try {
    for (const transport of ['grpcWeb', 'grpc'] as const) {
      const job = { transport, operationId, plan: 'status', ...options } as const;
      const measuredRuns: LoadResult[] = [];
      const bareRuns: LoadResult[] = [];
      for (let round = 0; round < rounds; round++) {
        measuredRuns.push(
          await runLoadInWorker({
            ...job,
            baseUrl: transport === 'grpc' ? s.t.server.grpcUrl : s.t.server.httpUrl,
            token: BENCH_TOKEN,
          }),
        );
        bareRuns.push(
          await runLoadInWorker({
            ...job,
            baseUrl: transport === 'grpc' ? bare.grpcUrl : bare.httpUrl,
          }),
        );
      }
      for (const [what, runs] of [
        ['server', measuredRuns],
        ['bare', bareRuns],
      ] as const) {
        const failed = runs.find((r) => r.errors > 0);
        if (failed)
          throw new Error(`${what} ${transport}: ${failed.errors} errors (${failed.firstError})`);
      }
      const measured = best(measuredRuns);
      const baseline = best(bareRuns);
      rows.push({
        row: 5,
        name: `status poll over ${transport === 'grpc' ? 'gRPC' : 'gRPC-Web'}, ${options.concurrency} callers`,
        dialect: s.dialect,
        figure: measured.perSecond,
        unit: 'req/s',
        detail: `best of ${rounds}: ${detail(measured)}`,
        baselineName: `bare handler (${detail(baseline)})`,
        baseline: baseline.perSecond,
        ratio: measured.perSecond / baseline.perSecond,
        target: { kind: 'min', value: 0.7 },
      });
    }
  } finally {
    await bare.close();
  }
  return rows;
}
