import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../../src/engines/backup/artifacts/index.js';
import type { BackupManifestDoc } from '../../src/engines/backup/backup-types.js';
import { scrubCatalog } from '../../src/engines/backup/maintenance/scrub.js';
import { listAllBackupRows } from '../../src/storage/backup/backup-store.js';
import { bulkInsertEntries } from '../../src/storage/data/physical-tree-store.js';
import { ensureTree } from '../../src/storage/data/tree-store.js';
import { DIALECTS, openTestStorage } from '../support/test-storage.js';

const CHILD = fileURLToPath(new URL('./capture-child.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));
const TRIALS = 3;

/** Runs the capture child and SIGKILLs it `delayMs` after it is ready (or lets it finish). */
async function captureAndKill(location: object, delayMs: number): Promise<'killed' | 'finished'> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: SERVER_DIR,
    env: { ...process.env, STORE_TEST_LOCATION: JSON.stringify(location) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child not ready: ${err}`)), 30_000);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', () => reject(new Error(`child exited early: ${err}`)));
  });
  await new Promise((r) => setTimeout(r, delayMs));
  child.kill('SIGKILL');
  await exited;
  return out.includes('done') ? 'finished' : 'killed';
}

describe.each(DIALECTS)('capture crash safety on %s', (dialect) => {
  let storage: Awaited<ReturnType<typeof openTestStorage>>;
  let artifacts: DirectoryArtifactStore;
  beforeAll(async () => {
    storage = await openTestStorage(dialect);
    artifacts = new DirectoryArtifactStore(join(storage.location.dataDir, 'artifacts'));
    const tree = await ensureTree(storage, 'acme', 'big', Date.now());
    const entries = Array.from({ length: 30_000 }, (_, i) => ({
      key: `key-${String(i).padStart(6, '0')}`,
      valueJson: JSON.stringify({ i, text: `value number ${i} `.repeat(4) }),
      tombstone: false,
      sequence: i + 1,
      schemaVersion: 0,
      updatedAt: Date.now(),
    }));
    await bulkInsertEntries(storage, tree.physicalTreeId, entries);
  });
  afterAll(async () => {
    await storage?.dispose();
  });

  it('a capture killed at a random point leaves no catalog row for the unfinished backup; scrub finds its leftovers and prune removes them', async () => {
    let killed = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const outcome = await captureAndKill(storage.location, Math.floor(Math.random() * 400));
      if (outcome === 'killed') killed += 1;
      // Every row that exists is a whole backup: all its artifacts verify.
      for (const row of await listAllBackupRows(storage, 'acme')) {
        const manifest = JSON.parse(row.manifestJson) as BackupManifestDoc;
        expect(manifest.entryCount).toBe(30_000);
        for (const artifact of manifest.artifacts) {
          expect((await artifacts.verifyArtifact('acme', row.id, artifact)).ok).toBe(true);
        }
      }
    }
    expect(killed).toBeGreaterThan(0);
    const rows = new Set((await listAllBackupRows(storage, 'acme')).map((r) => r.id));
    const leftovers = (await artifacts.listStoredBackups('acme')).filter(
      (b) => !rows.has(b.backupId),
    );
    const report = await scrubCatalog(storage, artifacts, 'acme', {
      prune: false,
      now: Date.now(),
    });
    expect(report.orphansFound).toBe(leftovers.length);
    for (const leftover of leftovers) {
      expect(report.findings).toContainEqual(
        expect.objectContaining({ artifactId: leftover.backupId, problem: 'orphan' }),
      );
    }
    const pruned = await scrubCatalog(storage, artifacts, 'acme', { prune: true, now: Date.now() });
    expect(pruned.orphansPruned).toBe(leftovers.length);
    const after = await artifacts.listStoredBackups('acme');
    expect(after.every((b) => rows.has(b.backupId) && b.tempFiles.length === 0)).toBe(true);
    expect(
      (await scrubCatalog(storage, artifacts, 'acme', { prune: false, now: Date.now() }))
        .orphansFound,
    ).toBe(0);
  }, 60_000);
});
