// Row 5: GetBackupOperationStatus with a valid token, over gRPC-Web and gRPC, at 64 concurrent
// callers, against a bare connect-node handler returning the same message, same load loop.
import { createClient } from '@connectrpc/connect';
import { BackupControlService } from '@store/contract';
import { startBareServer } from '../lib/bare-server.js';
import { BENCH_TOKEN, type BenchServer } from '../lib/bench-server.js';
import type { LoadResult } from '../lib/load-loop.js';
import { runLoadInWorker } from '../lib/worker-load.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';

const detail = (r: LoadResult) => `p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms`;

export async function unaryRows(
  s: BenchServer,
  operationId: string,
  sizes: Sizes,
): Promise<BenchRow[]> {
  const real = createClient(BackupControlService, s.grpc);
  const fixed = await real.getBackupOperationStatus({ operationId });
  if (!fixed.status) throw new Error('the status poll found no operation');
  const bare = await startBareServer(fixed);
  const options = {
    concurrency: sizes.unaryConcurrency,
    seconds: sizes.unarySeconds,
    warmupSeconds: Math.min(1, sizes.unarySeconds / 2),
  };
  const rows: BenchRow[] = [];
  try {
    for (const transport of ['grpcWeb', 'grpc'] as const) {
      const job = { transport, operationId, plan: 'status', ...options } as const;
      const measured = await runLoadInWorker({
        ...job,
        baseUrl: transport === 'grpc' ? s.t.server.grpcUrl : s.t.server.httpUrl,
        token: BENCH_TOKEN,
      });
      const baseline = await runLoadInWorker({
        ...job,
        baseUrl: transport === 'grpc' ? bare.grpcUrl : bare.httpUrl,
      });
      for (const [what, r] of [
        ['server', measured],
        ['bare', baseline],
      ] as const) {
        if (r.errors > 0)
          throw new Error(`${what} ${transport}: ${r.errors} errors (${r.firstError})`);
      }
      rows.push({
        row: 5,
        name: `status poll over ${transport === 'grpc' ? 'gRPC' : 'gRPC-Web'}, ${options.concurrency} callers`,
        dialect: s.dialect,
        figure: measured.perSecond,
        unit: 'req/s',
        detail: detail(measured),
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
