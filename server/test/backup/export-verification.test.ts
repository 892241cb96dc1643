import { readFile, rm, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { DirectoryArtifactStore } from '../../src/engines/backup/artifacts/index.js';
import { BackupEngine } from '../../src/engines/backup/backup-engine.js';
import type { CaptureResult } from '../../src/engines/backup/backup-types.js';
import { TreeDataEngine } from '../../src/engines/data/tree-data-engine.js';
import { OperationRunner } from '../../src/engines/operations/operation-runner.js';
import type { OperationRecord } from '../../src/engines/operations/types.js';
import { DIALECTS } from '../support/test-storage.js';
import { storagePerTest } from '../support/storage-per-test.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'test' };

describe.each(DIALECTS)('a verified export as a verification of the backup on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const storage = await freshStorage();
    const runner = new OperationRunner({ storage, pollMs: 20 });
    let now = Date.UTC(2026, 0, 5, 9, 0, 0);
    const artifacts = new DirectoryArtifactStore(storage.location.dataDir);
    const engine = new BackupEngine({
      storage,
      runner,
      artifacts,
      schedulerMinIntervalMs: 1000,
      healthMonitoring: false,
      clock: () => now,
    });
    runner.start();
    cleanups.push(() => runner.stop({ graceMs: 0 }));
    const data = new TreeDataEngine({ storage });
    const finish = async (op: OperationRecord): Promise<CaptureResult> => {
      for (;;) {
        const got = await runner.get(TENANT, op.id);
        if (got?.finishedAt) {
          if (got.state !== 'SUCCEEDED') throw new Error(`${got.state}: ${got.error?.message}`);
          return got.result as CaptureResult;
        }
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const capture = async (name: string, baseBackupId?: string) =>
      finish(
        await engine.startCapture(
          WHO,
          { name, scope: { treeId: 'orders' }, pageSize: 100, labels: {}, baseBackupId },
          baseBackupId !== undefined,
        ),
      );
    /** Reads an export to its end, or only its first chunk (the download abandoned). */
    const exportOf = async (backup: CaptureResult, options: { whole: boolean }) => {
      const artifactId = backup.entry.manifest.artifacts[0]!.artifactId;
      let bytes = 0;
      for await (const chunk of engine.exportArtifact(TENANT, backup.backupId, artifactId)) {
        bytes += chunk.length;
        if (!options.whole) break;
      }
      return bytes;
    };
    const health = async (backupId: string) => (await engine.getHealth(TENANT, backupId))?.report;
    const advance = (ms: number) => (now += ms);
    return { engine, data, artifacts, capture, exportOf, health, advance, now: () => now };
  }

  it('an export of a full backup that matched its SHA-256 is recorded as a healthy check at that time', async () => {
    const env = await setUp();
    await env.data.putEntry(TENANT, 'orders', 'a', '{"n":1}');
    const full = await env.capture('monday');
    expect(full.entry.manifest.artifacts).toHaveLength(1);
    expect(await env.health(full.backupId)).toBeUndefined();

    env.advance(60_000);
    // Abandoned after its first chunk: nothing proven, nothing recorded.
    await env.exportOf(full, { whole: false });
    expect(await env.health(full.backupId)).toBeUndefined();

    const bytes = await env.exportOf(full, { whole: true });
    expect(bytes).toBe(full.entry.manifest.artifacts[0]!.byteSize);
    expect(await env.health(full.backupId)).toEqual({
      backupId: full.backupId,
      checkedAt: env.now(),
      status: 'HEALTHY',
      artifactsChecked: 1,
      bytesVerified: bytes,
      chainIntact: true,
      issues: [],
      verifiedBy: 'export',
    });
    // The catalog's badge and last-verified time follow, as after a health check.
    const described = await env.engine.catalog.describe(TENANT, full.backupId);
    expect(described?.entry.lastHealthStatus).toBe('HEALTHY');
    expect(described?.entry.lastVerifiedAt).toBe(env.now());
  });

  it('records nothing for an incremental (its chain unread), a damaged artifact or a missing manifest.json', async () => {
    const env = await setUp();
    await env.data.putEntry(TENANT, 'orders', 'a', '{"n":1}');
    const full = await env.capture('monday');
    await env.data.putEntry(TENANT, 'orders', 'b', '{"n":2}');
    const incremental = await env.capture('tuesday', full.backupId);

    // The incremental's own artifact is fine, but a health check would also read its base.
    await env.exportOf(incremental, { whole: true });
    expect(await env.health(incremental.backupId)).toBeUndefined();

    // An export that fails its checksum changes nothing (the last check's report stays).
    await env.engine.checkHealthNow(TENANT, full.backupId);
    const layout = env.artifacts.layout;
    const path = layout.artifactPath(
      TENANT,
      full.backupId,
      full.entry.manifest.artifacts[0]!.artifactId,
    );
    const original = await readFile(path);
    const flipped = Buffer.from(original);
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 0xff;
    await writeFile(path, flipped);
    const before = await env.health(full.backupId);
    env.advance(60_000);
    await expect(env.exportOf(full, { whole: true })).rejects.toThrow(/checksum mismatch/);
    expect(await env.health(full.backupId)).toEqual(before);

    // Repaired, but manifest.json gone: a check would say DEGRADED, so the export records nothing.
    await writeFile(path, original);
    await rm(layout.manifestPath(TENANT, full.backupId));
    await env.exportOf(full, { whole: true });
    expect(await env.health(full.backupId)).toEqual(before);
  });
});
