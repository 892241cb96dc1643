// Rows 12 and 13 (issue 15). Row 12: the status poll and the export through the real Envoy
// (proxy/envoy.yaml, addresses substituted) against the same calls straight to the replica behind
// it, same run. Row 13: the export over native gRPC (h2c, what Envoy speaks upstream) from a client
// with large HTTP/2 windows, against the same file served as static HTTP by the same process.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { TreeDataService } from '@store/contract';
import { startEnvoy } from '../../scripts/edge/topology.js';
import { BENCH_TOKEN, type BenchServer } from '../lib/bench-server.js';
import { downloadInWorker, type Download, type DownloadJob } from '../lib/download.js';
import type { LoadResult } from '../lib/load-loop.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { MB } from '../lib/stats.js';
import { runLoadInWorker } from '../lib/worker-load.js';
import { EXPORT_JOB, exportArtifact } from './export.js';

const bestLoad = (runs: LoadResult[]) => runs.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const bestDownload = (runs: Download[]) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
const port = (url: string) => Number(new URL(url).port);

async function someOperation(s: BenchServer, known: string | undefined): Promise<string> {
  if (known) return known;
  await createClient(TreeDataService, s.grpc).putEntry({
    treeId: 'edge',
    key: 'k',
    valueJson: '1',
  });
  const { operationId } = await s.backup.startBackup({ name: 'edge', scope: { treeId: 'edge' } });
  await s.finish(operationId);
  return operationId;
}

export async function edgeRows(
  s: BenchServer,
  staticDir: string,
  sizes: Sizes,
  operationId: string | undefined,
  wanted: Set<number>,
): Promise<BenchRow[]> {
  const sha256 = await exportArtifact(s, staticDir, sizes.exportBytes);
  const ROUNDS = sizes.edgeRounds;
  const RUNS = sizes.edgeRounds;
  const rows: BenchRow[] = [];
  const rate = (ms: number) => (sizes.exportBytes / MB) * (1000 / ms);
  const job = (kind: DownloadJob['kind'], baseUrl: string, warmUp: boolean): DownloadJob => ({
    kind,
    baseUrl,
    token: BENCH_TOKEN,
    warmUp,
    ...EXPORT_JOB,
  });
  const check = (runs: Download[]) => {
    for (const run of runs)
      if (run.bytes !== sizes.exportBytes || run.sha256 !== sha256)
        throw new Error('a download did not return the artifact byte for byte');
  };

  if (wanted.has(12)) {
    const workDir = mkdtempSync(join(tmpdir(), 'bench-envoy-'));
    mkdirSync(join(workDir, 'logs'));
    const { envoy, listenPort } = await startEnvoy(workDir, join(workDir, 'logs'), {
      replicas: [{ grpcPort: port(s.t.server.grpcUrl), httpPort: port(s.t.server.httpUrl) }],
    });
    const viaEnvoy = `http://127.0.0.1:${listenPort}`;
    const direct = s.t.server.httpUrl;
    try {
      const polled = await someOperation(s, operationId);
      const load = {
        transport: 'grpcWeb',
        operationId: polled,
        plan: 'status',
        token: BENCH_TOKEN,
        concurrency: sizes.unaryConcurrency,
        seconds: sizes.unarySeconds / 2,
        warmupSeconds: Math.min(1, sizes.unarySeconds / 4),
      } as const;
      const envoyRuns: LoadResult[] = [];
      const directRuns: LoadResult[] = [];
      // Alternating, best of each: load bursts on a shared machine only ever slow a round down.
      for (let round = 0; round < ROUNDS; round++) {
        envoyRuns.push(await runLoadInWorker({ ...load, baseUrl: viaEnvoy }));
        directRuns.push(await runLoadInWorker({ ...load, baseUrl: direct }));
      }
      const failed = [...envoyRuns, ...directRuns].find((r) => r.errors > 0);
      if (failed) throw new Error(`status polls: ${failed.errors} errors (${failed.firstError})`);
      const [viaPolls, directPolls] = [bestLoad(envoyRuns), bestLoad(directRuns)];
      rows.push({
        row: 12,
        name: `status poll via Envoy (gRPC-Web → h2c), ${load.concurrency} callers`,
        dialect: s.dialect,
        figure: viaPolls.perSecond,
        unit: 'req/s',
        detail: `best of ${ROUNDS}: p50 ${viaPolls.p50Ms.toFixed(2)} ms, p99 ${viaPolls.p99Ms.toFixed(2)} ms`,
        baselineName: `gRPC-Web straight to the replica (p99 ${directPolls.p99Ms.toFixed(2)} ms)`,
        baseline: directPolls.perSecond,
        ratio: viaPolls.perSecond / directPolls.perSecond,
        target: { kind: 'min', value: 0.7 },
      });

      const envoyDownloads: Download[] = [];
      const directDownloads: Download[] = [];
      for (let run = 0; run < RUNS; run++) {
        envoyDownloads.push(await downloadInWorker(job('export', viaEnvoy, run === 0)));
        directDownloads.push(await downloadInWorker(job('export', direct, run === 0)));
      }
      check([...envoyDownloads, ...directDownloads]);
      const [viaExport, directExport] = [
        bestDownload(envoyDownloads),
        bestDownload(directDownloads),
      ];
      rows.push({
        row: 12,
        name: `ExportArtifact ${(sizes.exportBytes / MB).toFixed(0)} MB via Envoy (gRPC-Web → h2c)`,
        dialect: s.dialect,
        figure: rate(viaExport.ms),
        unit: 'MB/s',
        detail: `best of ${RUNS}: ${(viaExport.ms / 1000).toFixed(2)} s`,
        baselineName: 'gRPC-Web straight to the replica',
        baseline: rate(directExport.ms),
        ratio: directExport.ms / viaExport.ms,
        target: { kind: 'min', value: 0.6 },
      });
    } finally {
      await envoy.stop();
      rmSync(workDir, { recursive: true, force: true });
    }
  }

  if (wanted.has(13)) {
    const h2cRuns: Download[] = [];
    const staticRuns: Download[] = [];
    for (let run = 0; run < RUNS; run++) {
      h2cRuns.push(await downloadInWorker(job('export-h2c', s.t.server.grpcUrl, run === 0)));
      staticRuns.push(await downloadInWorker(job('static', s.t.server.httpUrl, run === 0)));
    }
    check([...h2cRuns, ...staticRuns]);
    const [h2c, served] = [bestDownload(h2cRuns), bestDownload(staticRuns)];
    rows.push({
      row: 13,
      name: `ExportArtifact ${(sizes.exportBytes / MB).toFixed(0)} MB over native gRPC (h2c, 16 MiB windows)`,
      dialect: s.dialect,
      figure: rate(h2c.ms),
      unit: 'MB/s',
      detail: `best of ${RUNS}: ${(h2c.ms / 1000).toFixed(2)} s`,
      baselineName: 'static HTTP, same process',
      baseline: rate(served.ms),
      ratio: served.ms / h2c.ms,
      target: { kind: 'min', value: 0.5 },
    });
  }
  return rows;
}
