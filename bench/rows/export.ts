// Row 4: ExportArtifact of a large artifact over gRPC-Web, against the same file served as plain
// static HTTP by the same server process (its SPA listener) in the same run.
import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { get } from 'node:http';
import { dirname, join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { BackupControlService } from '@store/contract';
import { ArtifactStore } from '../../server/src/engines/backup/artifacts/index.js';
import type { BackupManifestDoc } from '../../server/src/engines/backup/backup-types.js';
import { rowOfManifest } from '../../server/src/engines/backup/catalog/catalog-entry.js';
import { insertBackupIfAbsent } from '../../server/src/storage/backup-store.js';
import { BENCH_TOKEN, TENANT, withToken, type BenchServer } from '../lib/bench-server.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { MB, timed } from '../lib/stats.js';

const BACKUP_ID = 'bk_bench_export';
const ARTIFACT_ID = 'part-00001';
const STATIC_NAME = 'export-artifact.bin';

/**
 * Seeds a catalogued backup whose one artifact holds `bytes` random (incompressible) bytes —
 * export streams stored bytes as they are, so their content does not matter, only their size and
 * checksum. A hard link puts the very same file under the static root.
 */
async function seedArtifact(s: BenchServer, staticDir: string, bytes: number): Promise<string> {
  const store = new ArtifactStore(s.artifactDir);
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

function downloadStatic(url: string): Promise<{ bytes: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`static GET answered ${res.statusCode}`));
        res.resume();
        return;
      }
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        hash.update(chunk);
      });
      res.on('end', () => resolve({ bytes, sha256: hash.digest('hex') }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

export async function exportRow(
  s: BenchServer,
  staticDir: string,
  sizes: Sizes,
): Promise<BenchRow> {
  const sha256 = await seedArtifact(s, staticDir, sizes.exportBytes);
  // As the browser's connect-web transport does: it offers no response compression. (A client
  // that offers gzip makes the server gzip already-gzipped artifacts; see docs/performance.md.)
  const client = createClient(
    BackupControlService,
    createGrpcWebTransport({
      baseUrl: s.t.server.httpUrl,
      httpVersion: '1.1',
      acceptCompression: [],
      interceptors: [withToken(BENCH_TOKEN)],
    }),
  );
  const exportOnce = async () => {
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of client.exportArtifact({
      backupId: BACKUP_ID,
      artifactId: ARTIFACT_ID,
    })) {
      hash.update(chunk.data);
      bytes += chunk.data.length;
    }
    return { bytes, sha256: hash.digest('hex') };
  };
  // One warm-up of each (page cache, connections), then the measured pass.
  await downloadStatic(`${s.t.server.httpUrl}/${STATIC_NAME}`);
  await exportOnce();
  const staticRun = await timed(() => downloadStatic(`${s.t.server.httpUrl}/${STATIC_NAME}`));
  const exportRun = await timed(exportOnce);
  for (const run of [staticRun.value, exportRun.value]) {
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
    detail: `${(exportRun.ms / 1000).toFixed(2)} s`,
    baselineName: 'static HTTP, same process',
    baseline: rate(staticRun.ms),
    ratio: staticRun.ms / exportRun.ms,
    target: { kind: 'min', value: 0.5 },
  };
}
