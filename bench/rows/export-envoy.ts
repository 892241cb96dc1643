// Row 21 (issue 25, bullet 6): ExportArtifact of a real capture's artifact through the real Envoy
// (proxy/envoy.yaml, only addresses substituted; gRPC-Web downstream, h2c upstream) against the
// same call straight to the replica's own gRPC-Web listener, same run. Row 12(b) measures the
// same path with random bytes; this one uses what a capture writes, at the server's chunk size.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_EXPORT_CHUNK_BYTES } from '../../server/src/engines/backup/artifacts/artifact-export.js';
import { startEnvoy } from '../../scripts/edge/topology.js';
import { BENCH_TOKEN, type BenchServer } from '../lib/bench-server.js';
import { capturedArtifact, type CapturedArtifact } from '../lib/captured-artifact.js';
import { downloadInWorker, type Download } from '../lib/download.js';
import type { RawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { MB } from '../lib/stats.js';

/** Untimed calls before the first round: code, connections (Envoy's upstream too), page cache. */
const WARM_CALLS = 3;
const port = (url: string) => Number(new URL(url).port);

function exportJob(artifact: CapturedArtifact, baseUrl: string, untimed: number) {
  return {
    kind: 'export',
    baseUrl,
    staticName: artifact.staticName,
    token: BENCH_TOKEN,
    backupId: artifact.backupId,
    artifactId: artifact.artifactId,
    warmUp: untimed > 0,
    untimed,
  } as const;
}

export async function exportEnvoyRow(
  s: BenchServer,
  raw: RawDb,
  staticDir: string,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow> {
  const artifact = await capturedArtifact(s, raw, staticDir, sizes.entries);
  log(
    `captured ${artifact.entries} entries: ${artifact.artifactId}, ${(artifact.bytes / MB).toFixed(1)} MB`,
  );
  // Best of 3 in the full run; one round in --quick (sizes.edgeRounds), which only checks it works.
  const runs = sizes.edgeRounds;
  const workDir = mkdtempSync(join(tmpdir(), 'bench-export-envoy-'));
  mkdirSync(join(workDir, 'logs'));
  const { envoy, listenPort } = await startEnvoy(workDir, join(workDir, 'logs'), {
    replicas: [{ grpcPort: port(s.t.server.grpcUrl), httpPort: port(s.t.server.httpUrl) }],
  });
  try {
    const viaEnvoy = `http://127.0.0.1:${listenPort}`;
    const direct = s.t.server.httpUrl;
    const envoyRuns: Download[] = [];
    const directRuns: Download[] = [];
    // Alternating, best of each: load bursts on a shared machine only ever slow a round down.
    log('Envoy up');
    for (let run = 0; run < runs; run++) {
      const untimed = run > 0 ? 1 : runs > 1 ? WARM_CALLS : 1;
      envoyRuns.push(await downloadInWorker(exportJob(artifact, viaEnvoy, untimed)));
      directRuns.push(await downloadInWorker(exportJob(artifact, direct, untimed)));
    }
    for (const run of [...envoyRuns, ...directRuns])
      if (run.bytes !== artifact.bytes || run.sha256 !== artifact.sha256)
        throw new Error('a download did not return the artifact byte for byte');
    const show = (list: Download[]) => list.map((r) => r.ms.toFixed(0)).join(', ');
    log(`via Envoy ${show(envoyRuns)} ms; straight ${show(directRuns)} ms`);
    const best = (list: Download[]) => Math.min(...list.map((r) => r.ms));
    const [envoyMs, directMs] = [best(envoyRuns), best(directRuns)];
    const rate = (ms: number) => (artifact.bytes / MB) * (1000 / ms);
    return {
      row: 21,
      name: `ExportArtifact via Envoy (gRPC-Web → h2c), ${(artifact.bytes / MB).toFixed(1)} MB of a real capture`,
      dialect: s.dialect,
      figure: rate(envoyMs),
      unit: 'MB/s',
      detail: `best of ${runs}: ${envoyMs.toFixed(0)} ms; chunks of ${DEFAULT_EXPORT_CHUNK_BYTES / 1024} KiB`,
      baselineName: `gRPC-Web straight to the replica (${directMs.toFixed(0)} ms)`,
      baseline: rate(directMs),
      ratio: directMs / envoyMs,
      target: { kind: 'min', value: 0.6 },
    };
  } finally {
    await envoy.stop();
    rmSync(workDir, { recursive: true, force: true });
  }
}
