// What only the S3 artifact store has to prove, against a real S3 server (rclone serve s3): a
// catalog rebuilt from the bucket alone, scrub of orphaned objects and incomplete multipart
// uploads older than a day, and the server going away mid-capture (the operation FAILED naming
// the store and the cause, nothing catalogued, no upload left once it is back) or mid-export
// (the stream ends Unavailable and the server keeps answering). Through a proxy that can cut the
// connection, since a restarted rclone would forget its uploads and hide a leak.
import { randomBytes } from 'node:crypto';
import { Code, ConnectError } from '@connectrpc/connect';
import { CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { S3ArtifactStore, type ArtifactStore } from '../../src/engines/backup/artifacts/index.js';
import type { S3ObjectStore } from '../../src/engines/backup/artifacts/object-store/index.js';
import { BackupEngine } from '../../src/engines/backup/backup-engine.js';
import type {
  CaptureResult,
  RebuildResult,
  RestoreResult,
  ScrubResult,
} from '../../src/engines/backup/backup-types.js';
import { TreeDataEngine } from '../../src/engines/data/tree-data-engine.js';
import { OperationRunner } from '../../src/engines/operations/operation-runner.js';
import type { OperationRecord } from '../../src/engines/operations/types.js';
import { listAllBackupRows } from '../../src/storage/backup/backup-store.js';
import {
  sharedS3Server,
  closeSharedS3Server,
  testObjectStore,
} from '../support/artifact-stores.js';
import { startCuttableProxy, type CuttableProxy } from '../support/cuttable-proxy.js';
import type { TestS3Server } from '../support/s3-server.js';
import { DIALECTS } from '../support/test-storage.js';
import { storagePerTest } from '../support/storage-per-test.js';
import { startBackupServer } from './backup-fixture.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'test' };
const DAY = 24 * 60 * 60 * 1000;

let s3: TestS3Server;
let proxy: CuttableProxy;
beforeAll(async () => {
  s3 = await sharedS3Server();
  proxy = await startCuttableProxy(Number(new URL(s3.endpoint).port));
});
afterAll(async () => {
  await proxy?.close();
  await closeSharedS3Server();
});

/** Random text: it barely compresses, so a few MB of entries make multipart uploads. */
function bulky(count: number, bytes: number) {
  return Array.from({ length: count }, (_, i) => ({
    key: `k${String(i).padStart(6, '0')}`,
    valueJson: JSON.stringify(randomBytes(bytes / 2).toString('hex')),
  }));
}

async function uploadsBelow(objects: S3ObjectStore, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const upload of objects.listIncompleteUploads(prefix)) keys.push(upload.key);
  return keys;
}

async function keysBelow(objects: S3ObjectStore, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of objects.list(prefix)) keys.push(object.key);
  return keys;
}

describe.each(DIALECTS)('backups in S3 on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** An engine over fresh storage and `objects` (the bucket below one prefix). */
  async function engineOver(objects: S3ObjectStore, options: { clock?: () => number } = {}) {
    const storage = await freshStorage();
    const runner = new OperationRunner({ storage, pollMs: 20 });
    const artifacts: ArtifactStore = new S3ArtifactStore(objects);
    let afterPage: (() => Promise<void>) | undefined;
    const engine = new BackupEngine({
      storage,
      runner,
      artifacts,
      schedulerMinIntervalMs: 1000,
      healthMonitoring: false,
      afterCapturePage: async () => afterPage?.(),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    runner.start();
    cleanups.push(() => runner.stop({ graceMs: 0 }));
    const data = new TreeDataEngine({ storage });
    const settle = async (op: OperationRecord) => {
      for (;;) {
        const now = await runner.get(TENANT, op.id);
        if (now?.finishedAt) return now;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const finish = async (op: OperationRecord) => {
      const done = await settle(op);
      if (done.state !== 'SUCCEEDED') throw new Error(`${done.state}: ${done.error?.message}`);
      return done.result;
    };
    const capture = async (treeId: string, baseBackupId?: string) =>
      (await finish(
        await engine.startCapture(
          WHO,
          { name: treeId, scope: { treeId }, pageSize: 0, labels: {}, baseBackupId },
          baseBackupId !== undefined,
        ),
      )) as CaptureResult;
    return {
      storage,
      engine,
      data,
      artifacts,
      settle,
      finish,
      capture,
      onPage: (hook: () => Promise<void>) => (afterPage = hook),
    };
  }

  const freshPrefix = () => `s3-${randomBytes(5).toString('hex')}`;

  it('a server with an empty database rebuilds the catalog from the bucket alone, then restores, exports and verifies from it', async () => {
    const prefix = freshPrefix();
    const first = await engineOver(testObjectStore(s3, prefix));
    for (let i = 0; i < 20; i++) await first.data.putEntry(TENANT, 'src', `k${i}`, String(i));
    const full = await first.capture('src');
    await first.data.putEntry(TENANT, 'src', 'k0', '"changed"');
    await first.data.deleteEntry(TENANT, 'src', 'k1');
    const inc = await first.capture('src', full.backupId);
    const expected = (await first.data.listEntries(TENANT, 'src', { pageSize: 100 })).entries;

    const second = await engineOver(testObjectStore(s3, prefix));
    expect(await listAllBackupRows(second.storage, TENANT)).toEqual([]);
    const rebuilt = (await second.finish(await second.engine.startRebuild(WHO))) as RebuildResult;
    expect(rebuilt).toMatchObject({ rowsRestored: 2, unreadableManifests: [] });
    expect((await second.engine.catalog.describe(TENANT, inc.backupId))?.chain).toEqual([
      full.backupId,
      inc.backupId,
    ]);
    const restored = (await second.finish(
      await second.engine.startRestore(
        WHO,
        { backupId: inc.backupId, mode: 'NEW_TREE', targetTreeId: 'copy', applyBatchSize: 0 },
        false,
      ),
    )) as RestoreResult;
    expect(restored.entriesApplied).toBeGreaterThan(0);
    const copy = (await second.data.listEntries(TENANT, 'copy', { pageSize: 100 })).entries;
    expect(copy.map((e) => [e.key, e.valueJson])).toEqual(
      expected.map((e) => [e.key, e.valueJson]),
    );
    const health = await second.engine.checkHealthNow(TENANT, inc.backupId);
    expect(health.status).toBe('HEALTHY');
    const artifact = full.entry.manifest.artifacts[0]!;
    const chunks: Uint8Array[] = [];
    for await (const chunk of second.engine.exportArtifact(
      TENANT,
      full.backupId,
      artifact.artifactId,
    ))
      chunks.push(chunk);
    expect(Buffer.concat(chunks).length).toBe(artifact.byteSize);
  });

  it('scrub leaves young leftovers alone, lists orphaned objects and incomplete uploads older than a day, and prunes them', async () => {
    const prefix = freshPrefix();
    const objects = testObjectStore(s3, prefix);
    let now = Date.now();
    const env = await engineOver(objects, { clock: () => now });
    for (let i = 0; i < 5; i++) await env.data.putEntry(TENANT, 'kept', `k${i}`, String(i));
    const kept = await env.capture('kept');
    // A capture that died without its manifest, and an upload a crashed capture never finished
    // inside a catalogued backup's prefix.
    await objects.put(`${TENANT}/bk_dead/part-00001.ndjson.gz`, [Buffer.from('partial')]);
    const stray = objects.objectKey(`${TENANT}/${kept.backupId}/part-00009.ndjson.gz`);
    const { UploadId } = await objects.client.send(
      new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: stray }),
    );
    await objects.client.send(
      new UploadPartCommand({
        Bucket: s3.bucket,
        Key: stray,
        UploadId,
        PartNumber: 1,
        Body: randomBytes(1024),
      }),
    );
    const scrub = async (pruneOrphans: boolean) =>
      (await env.finish(await env.engine.startScrub(WHO, pruneOrphans))) as ScrubResult;

    const young = await scrub(true);
    expect(young.orphansFound).toBe(0);
    expect(await uploadsBelow(objects)).toHaveLength(1);

    now += DAY + 60_000;
    const listed = await scrub(false);
    expect(listed.orphansFound).toBe(2);
    expect(listed.orphansPruned).toBe(0);
    expect(listed.findings.map((f) => [f.artifactId, f.problem]).sort()).toEqual([
      ['bk_dead', 'orphan'],
      ['part-00009.ndjson.gz (incomplete upload)', 'orphan'],
    ]);
    expect(listed.findings.find((f) => f.artifactId === 'bk_dead')?.detail).toMatch(
      /1 artifacts, 0 unfinished writes, manifest absent/,
    );
    const pruned = await scrub(true);
    expect(pruned.orphansPruned).toBe(2);
    expect(await uploadsBelow(objects)).toEqual([]);
    expect(await keysBelow(objects, `${TENANT}/bk_dead/`)).toEqual([]);
    // The catalogued backup is untouched and still proves out.
    expect((await env.engine.checkHealthNow(TENANT, kept.backupId)).status).toBe('HEALTHY');
    expect((await scrub(false)).findings).toEqual([]);
  });

  it('S3 stopped mid-capture: the operation FAILED naming the artifact store and the cause, nothing catalogued, no incomplete upload once S3 is back', async () => {
    const prefix = freshPrefix();
    const direct = testObjectStore(s3, prefix);
    const viaProxy = testObjectStore({ ...s3, endpoint: proxy.endpoint }, prefix);
    const env = await engineOver(viaProxy);
    // ~24 MB of text, ~13 MB of gzip: a multipart upload whose first 5 MiB part starts before
    // half the pages are read. With half as much (6.5 MB of gzip), the part began with a fifth of
    // the pages left, and on a busy machine the capture could read them all before S3 listed it.
    const entries = bulky(6000, 4000);
    for (let i = 0; i < entries.length; i += 1000) {
      await env.data.putEntries(TENANT, 'big', entries.slice(i, i + 1000));
    }
    let cut = false;
    env.onPage(async () => {
      // Cut once the artifact's multipart upload has begun (its first part is on its way).
      if (!cut && (await uploadsBelow(direct)).length > 0) {
        cut = true;
        await proxy.cut();
      }
    });
    try {
      const op = await env.engine.startCapture(
        WHO,
        { name: 'big', scope: { treeId: 'big' }, pageSize: 100, labels: {} },
        false,
      );
      const done = await env.settle(op);
      expect(cut).toBe(true);
      expect(done.state).toBe('FAILED');
      expect(done.error?.code).toBe('unavailable');
      expect(done.error?.message).toContain(`artifact store s3://${s3.bucket}/${prefix}`);
      expect(done.error?.message).toMatch(/ECONNREFUSED|ECONNRESET|socket|connection/i);
      expect(await listAllBackupRows(env.storage, TENANT)).toEqual([]);
    } finally {
      // No later page may cut; and only a cut proxy can be restored (else its error would hide
      // the assertion that failed).
      const wasCut = cut;
      cut = true;
      if (wasCut) await proxy.restore();
    }
    // Once S3 answers again, the failed capture's cleanup (retried meanwhile) leaves nothing.
    const deadline = Date.now() + 30_000;
    while ((await uploadsBelow(direct)).length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await uploadsBelow(direct)).toEqual([]);
    await (env.artifacts as S3ArtifactStore).cleanup.idle();
    expect(await keysBelow(direct)).toEqual([]);
  });
});

describe('S3 stopped mid-export', () => {
  it('the stream ends Unavailable naming the store, the server keeps answering, and the export works once S3 is back', async () => {
    const prefix = `export-${randomBytes(5).toString('hex')}`;
    const s = await startBackupServer('sqlite', {
      ...s3.env(prefix),
      STORE_S3_ENDPOINT: proxy.endpoint,
    });
    try {
      const entries = bulky(2000, 4000);
      for (let i = 0; i < entries.length; i += 1000) {
        await s.t.server.treeData.putEntries('default', 'big', entries.slice(i, i + 1000));
      }
      const op = await s.backup.startBackup({ name: 'big', scope: { treeId: 'big' } });
      const status = await s.finish(op.operationId, 60_000);
      if (status.result.case !== 'capture') throw new Error(status.error?.message);
      const { backupId, manifest } = status.result.value;
      const artifactId = manifest!.artifacts[0]!.artifactId;

      let received = 0;
      const failure = await (async () => {
        for await (const chunk of s.backup.exportArtifact({ backupId, artifactId })) {
          received += chunk.data.length;
          if (received === chunk.data.length) await proxy.cut();
          await new Promise((r) => setTimeout(r, 1));
        }
      })().then(
        () => undefined,
        (error: unknown) => ConnectError.from(error),
      );
      expect(failure?.code).toBe(Code.Unavailable);
      expect(failure?.rawMessage).toContain(`artifact store s3://${s3.bucket}/${prefix}`);
      expect(received).toBeLessThan(Number(manifest!.artifacts[0]!.byteSize));
      // The server keeps answering calls that need no S3.
      expect((await s.backup.listBackups({})).backups.map((b) => b.backupId)).toEqual([backupId]);

      await proxy.restore();
      let bytes = 0;
      for await (const chunk of s.backup.exportArtifact({ backupId, artifactId }))
        bytes += chunk.data.length;
      expect(bytes).toBe(Number(manifest!.artifacts[0]!.byteSize));
    } finally {
      await proxy.restore().catch(() => undefined);
      await s.t.dispose();
    }
  });
});
