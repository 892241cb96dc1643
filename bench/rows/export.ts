// Row 4: ExportArtifact of a large artifact over gRPC-Web, against the same file served as plain
// static HTTP by the same server process (its SPA listener) in the same run. Both clients run in
// a worker thread, as row 5's callers do, so they do not share the server's event loop.
import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DirectoryArtifactStore } from '../../server/src/engines/backup/artifacts/index.js';
import type { BackupManifestDoc } from '../../server/src/engines/backup/backup-types.js';
import { rowOfManifest } from '../../server/src/engines/backup/catalog/catalog-entry.js';
import { insertBackupIfAbsent } from '../../server/src/storage/backup/backup-store.js';
import { BENCH_TOKEN, TENANT, type BenchServer } from '../lib/bench-server.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { downloadInWorker, type Download } from '../lib/download.js';
import { MB } from '../lib/stats.js';

const BACKUP_ID = 'bk_bench_export';
const ARTIFACT_ID = 'part-00001';
const STATIC_NAME = 'export-artifact.bin';
const RUNS = 5;

/**
 * Seeds a catalogued backup whose one artifact holds `bytes` random (incompressible) bytes —
 * export streams stored bytes as they are, so their content does not matter, only their size and
 * checksum. A hard link puts the very same file under the static root.
 */
const seeded = new WeakMap<BenchServer, Promise<string>>();

/** The export artifact of `s` (seeded once per server; rows 4, 8 and 9 share it): its sha256. */
export function exportArtifact(s: BenchServer, staticDir: string, bytes: number): Promise<string> {
  let sha = seeded.get(s);
  if (!sha) seeded.set(s, (sha = seedArtifact(s, staticDir, bytes)));
  return sha;
}

/** Where rows 4, 8 and 9 find the artifact: its ids, and its name under the static root. */
export const EXPORT_JOB = { backupId: BACKUP_ID, artifactId: ARTIFACT_ID, staticName: STATIC_NAME };

async function seedArtifact(s: BenchServer, staticDir: string, bytes: number): Promise<string> {
  const store = new DirectoryArtifactStore(s.artifactDir);
  const path = store.layout.artifactPath(TENANT, BACKUP_ID, ARTIFACT_ID);
  mkdirSync(dirname(path), { recursive: true });
  const file = await open(path, 'w');
  const hash = createHash('sha256');
  for (let written = 0; written < bytes;) {
    const chunk = randomBytes(Math.min(8 * MB, bytes - written));
    hash.update(chunk);
    await file.write(chunk);
    written += chunk.length;
  }
  await file.close();
  const sha256 = hash.digest('hex');
  const now = Date.now();
  const manifest: BackupManifestDoc = {
    backupId: BACKUP_ID,
    tenant: TENANT,
    name: 'bench export',
    kind: 'FULL',
    treeName: 'bench-export',
    keyPrefix: null,
    baseBackupId: null,
    setId: null,
    physicalTreeId: 'pt_bench_export',
    createdAt: now,
    completedAt: now,
    fromSequence: 0,
    toSequence: 1,
    entryCount: 1,
    tombstoneCount: 0,
    byteSize: bytes,
    artifacts: [{ artifactId: ARTIFACT_ID, byteSize: bytes, sha256, entryCount: 1 }],
    schemaVersion: 0,
    createdBy: 'bench',
    labels: {},
  };
  await store.writeManifest(TENANT, BACKUP_ID, manifest, { artifacts: manifest.artifacts });
  await insertBackupIfAbsent(s.t.server.storage, rowOfManifest(manifest));
  linkSync(path, join(staticDir, STATIC_NAME));
  return sha256;
}

export async function exportRow(
  s: BenchServer,
  staticDir: string,
  sizes: Sizes,
): Promise<BenchRow> {
  const sha256 = await exportArtifact(s, staticDir, sizes.exportBytes);
  // Each client runs in a worker thread (its own event loop). The two alternate, RUNS times each
  // after a warm-up, and each keeps its best time: on a shared machine, load bursts only ever
  // slow a run down, so the best run is the one closest to what the code can do.
  const job = {
    baseUrl: s.t.server.httpUrl,
    staticName: STATIC_NAME,
    token: BENCH_TOKEN,
    backupId: BACKUP_ID,
    artifactId: ARTIFACT_ID,
  };
  const runs = sizes.smoke ? 1 : RUNS;
  const staticRuns: Download[] = [];
  const exportRuns: Download[] = [];
  for (let run = 0; run < runs; run++) {
    staticRuns.push(await downloadInWorker({ ...job, kind: 'static', warmUp: run === 0 }));
    exportRuns.push(await downloadInWorker({ ...job, kind: 'export', warmUp: run === 0 }));
  }
  // The row's client parses frames as leanly as the static client reads its body; what a Node
  // caller using connect-node's own client sees is reported beside it (bench/lib/grpc-web-stream.ts),
  // in the full run only.
  const connectRun = sizes.smoke
    ? undefined
    : await downloadInWorker({ ...job, kind: 'export-connect', warmUp: false });
  const best = (runs: Download[]) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  const staticRun = best(staticRuns);
  const exportRun = best(exportRuns);
  for (const run of [...staticRuns, ...exportRuns, ...(connectRun ? [connectRun] : [])]) {
    if (run.bytes !== sizes.exportBytes || run.sha256 !== sha256) {
      throw new Error('a download did not return the artifact byte for byte');
    }
  }
  const rate = (ms: number) => (sizes.exportBytes / MB) * (1000 / ms);
  return {
    row: 4,
    name: `ExportArtifact ${(sizes.exportBytes / MB).toFixed(0)} MB over gRPC-Web`,
    dialect: s.dialect,
    figure: rate(exportRun.ms),
    unit: 'MB/s',
    detail:
      `best of ${runs}: ${(exportRun.ms / 1000).toFixed(2)} s` +
      (connectRun ? `; connect-node client: ${rate(connectRun.ms).toFixed(0)} MB/s` : ''),
    baselineName: 'static HTTP, same process',
    baseline: rate(staticRun.ms),
    ratio: staticRun.ms / exportRun.ms,
    target: { kind: 'min', value: 0.5 },
  };
}
