// The artifact of a REAL capture (issue 25, bullet 6): a tree seeded with row 1's entries,
// captured by StartBackup, its largest artifact hard-linked under the static root so a baseline
// can fetch the very same bytes as a static file from the same server.
import { linkSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DirectoryArtifactStore } from '../../server/src/engines/backup/artifacts/index.js';
import { TENANT, type BenchServer } from './bench-server.js';
import type { RawDb } from './raw-db.js';
import { seedTree } from './seed-tree.js';

export interface CapturedArtifact {
  backupId: string;
  artifactId: string;
  /** Its name under the static root. */
  staticName: string;
  bytes: number;
  sha256: string;
  entries: number;
}

const captured = new WeakMap<BenchServer, Promise<CapturedArtifact>>();

/** Seeds and captures once per server (rows 20 and 21 share it). */
export function capturedArtifact(
  s: BenchServer,
  raw: RawDb,
  staticDir: string,
  entries: number,
): Promise<CapturedArtifact> {
  let artifact = captured.get(s);
  if (!artifact) captured.set(s, (artifact = capture(s, raw, staticDir, entries)));
  return artifact;
}

async function capture(
  s: BenchServer,
  raw: RawDb,
  staticDir: string,
  entries: number,
): Promise<CapturedArtifact> {
  const tree = 'bench-export-capture';
  await seedTree(s.t.server.storage, raw, TENANT, tree, entries);
  const handle = await s.backup.startBackup({
    name: 'bench export capture',
    scope: { treeId: tree },
  });
  const status = await s.finish(handle.operationId);
  if (status.result.case !== 'capture') throw new Error('the capture gave no capture result');
  const { backupId } = status.result.value;
  const { manifest } = await s.backup.describeBackup({ backupId });
  const largest = manifest?.artifacts.reduce((a, b) => (b.byteSize > a.byteSize ? b : a));
  if (!largest) throw new Error(`backup ${backupId} holds no artifact`);
  const path = new DirectoryArtifactStore(s.artifactDir).layout.artifactPath(
    TENANT,
    backupId,
    largest.artifactId,
  );
  const staticName = `captured-${largest.artifactId}.bin`;
  linkSync(path, join(staticDir, staticName));
  const bytes = statSync(path).size;
  if (BigInt(bytes) !== largest.byteSize) throw new Error('the stored artifact is not its size');
  return {
    backupId,
    artifactId: largest.artifactId,
    staticName,
    bytes,
    sha256: largest.sha256,
    entries,
  };
}
