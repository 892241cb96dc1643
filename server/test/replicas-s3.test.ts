// Scale-out without a shared volume: replicas on one PostgreSQL schema and one S3 bucket (the real
// `rclone serve s3`), each with a data directory of its own. Replica 1 runs in this process,
// replica 2 (and the one killed mid-capture) is the shipped server in a process of its own, so
// nothing but the database and the bucket connects them.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  BackupHealthStatus,
  StoreOperationState,
  StoreRestoreMode,
  TreeDataService,
  type StoreOperationStatus,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3ArtifactStore } from '../src/engines/backup/artifacts/index.js';
import { scrubCatalog } from '../src/engines/backup/maintenance/scrub.js';
import { testObjectStore } from './support/artifact-stores.js';
import { bearerInterceptor } from './support/bearer.js';
import { startTestS3Server, type TestS3Server } from './support/s3-server.js';
import { seedTree } from './support/schema-fixtures.js';
import { spawnServer, type ServerProcess } from './support/server-process.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { newStorageLocation } from './support/test-storage.js';

const TOKEN = 'replica-s3-test-admin-token-0123456789';
const TENANT = 'default';
const DAY_MS = 86_400_000;

type BackupClient = ReturnType<typeof createClient<typeof BackupControlService>>;

const transport = (grpcUrl: string) =>
  createGrpcTransport({ baseUrl: grpcUrl, interceptors: [bearerInterceptor(TOKEN)] });
const backupClient = (grpcUrl: string): BackupClient =>
  createClient(BackupControlService, transport(grpcUrl));

/** A health check run (and polled) through `client`; its report's status. */
async function healthThrough(client: BackupClient, backupId: string) {
  const started = await client.startBackupHealthCheck({ backupId });
  const done = await settle(client, started.operationId);
  if (done.result.case !== 'healthReport')
    throw new Error(`no health report: ${done.error?.message}`);
  return done.result.value.status;
}

/** Polls until the operation is terminal (a takeover may need a lease or two). */
async function settle(client: BackupClient, operationId: string): Promise<StoreOperationStatus> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { status } = await client.getBackupOperationStatus({ operationId });
    if (!status) throw new Error(`operation ${operationId} is not visible here`);
    if (status.state >= StoreOperationState.SUCCEEDED) return status;
    if (Date.now() > deadline) throw new Error(`operation ${operationId} still ${status.state}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function exportedSha256(client: BackupClient, backupId: string, artifactId: string) {
  const hash = createHash('sha256');
  for await (const chunk of client.exportArtifact({ backupId, artifactId }))
    hash.update(chunk.data);
  return hash.digest('hex');
}

describe('replicas on one PostgreSQL schema and one S3 bucket, no shared directory', () => {
  const location = newStorageLocation('postgres');
  const prefix = `replicas-${randomBytes(4).toString('hex')}`;
  const dataDirs: string[] = [];
  const spawned: ServerProcess[] = [];
  let s3: TestS3Server;
  let replica1: TestServer;
  let replica2: ServerProcess;
  let via1: BackupClient;
  let via2: BackupClient;

  /** The settings every replica shares: the database, the bucket, a short operation lease. */
  const shared = () => ({
    ...s3.env(prefix),
    STORE_BOOTSTRAP_TOKEN: TOKEN,
    STORE_OPERATION_LEASE_MS: '1000',
  });

  /** The shipped server as another replica, with a fresh data directory of its own. */
  async function spawnReplica(): Promise<ServerProcess> {
    const dataDir = mkdtempSync(join(tmpdir(), 'store-replica-s3-'));
    dataDirs.push(dataDir);
    const replica = await spawnServer({
      ...shared(),
      STORE_DATA_DIR: dataDir,
      DATABASE_URL: location.databaseUrl!,
      STORE_PG_SCHEMA: location.postgresSchema!,
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
      STORE_LOG_LEVEL: 'warn',
    });
    spawned.push(replica);
    return replica;
  }

  beforeAll(async () => {
    s3 = await startTestS3Server();
    // Replica 1 runs in this process: the SDK's provider chain reads its credentials from here.
    process.env.AWS_ACCESS_KEY_ID = s3.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.secretAccessKey;
    replica1 = await startTestServer('postgres', shared(), location);
    replica2 = await spawnReplica();
    via1 = backupClient(replica1.server.grpcUrl);
    via2 = backupClient(replica2.grpcUrl);
  }, 120_000);
  afterAll(async () => {
    for (const replica of spawned) await replica.stop(2_000);
    await replica1?.dispose();
    await s3?.close();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a backup captured by replica 1 is restored, exported and health-checked through replica 2', async () => {
    const entries = Array.from(
      { length: 2000 },
      (_, i) => [`k${String(i).padStart(5, '0')}`, { i, text: `value ${i}` }, 0] as const,
    );
    await seedTree(replica1.server.storage, TENANT, 'orders', entries);
    const started = await via1.startBackup({ name: 'by-replica-1', scope: { treeId: 'orders' } });
    const done = await settle(via1, started.operationId);
    expect(done.state, done.error?.message).toBe(StoreOperationState.SUCCEEDED);
    if (done.result.case !== 'capture') throw new Error('no capture result');
    const { backupId } = done.result.value;

    // Nothing of it is in replica 2's (or replica 1's) data directory: only the bucket has it.
    const described = await via2.describeBackup({ backupId });
    expect(described.found).toBe(true);
    const artifacts = described.manifest?.artifacts ?? [];
    expect(artifacts.length).toBeGreaterThan(0);
    for (const artifact of artifacts) {
      expect(await exportedSha256(via2, backupId, artifact.artifactId)).toBe(artifact.sha256);
    }
    expect(await healthThrough(via2, backupId)).toBe(BackupHealthStatus.HEALTHY);

    const restore = await via2.startRestore({
      backupId,
      mode: StoreRestoreMode.NEW_TREE,
      targetTreeId: 'orders-copy',
    });
    const restoreDone = await settle(via2, restore.operationId);
    if (restoreDone.result.case !== 'restore')
      throw new Error(`no restore result: ${restoreDone.error?.message}`);
    const restored = restoreDone.result.value;
    expect(Number(restored.entriesApplied)).toBe(entries.length);
    const treeData = createClient(TreeDataService, transport(replica2.grpcUrl));
    const copy = await treeData.getEntry({ treeId: 'orders-copy', key: 'k01999' });
    expect(copy.found).toBe(true);
  });

  it('a replica SIGKILLed mid-capture: the operation is taken over or FAILED, never a catalogued backup with a missing part', async () => {
    // About 12 MB of hard-to-compress values: the artifact streams as a multipart upload of
    // several parts, so the kill lands while parts are in flight.
    const entries = Array.from(
      { length: 12_000 },
      (_, i) =>
        [
          `k${String(i).padStart(6, '0')}`,
          { i, noise: randomBytes(600).toString('base64') },
          0,
        ] as const,
    );
    await seedTree(replica1.server.storage, TENANT, 'big', entries);
    const doomed = await spawnReplica();
    const viaDoomed = backupClient(doomed.grpcUrl);
    const started = await viaDoomed.startBackup({
      name: 'killed-mid-capture',
      scope: { treeId: 'big' },
      pageSize: 200,
    });
    // Kill only once the capture is really under way on the doomed replica: its multipart
    // upload begun, parts in flight.
    const objects = testObjectStore(s3, prefix);
    const incompleteUploads = async () => {
      const found = [];
      for await (const upload of objects.listIncompleteUploads()) found.push(upload);
      return found;
    };
    const deadline = Date.now() + 60_000;
    while ((await incompleteUploads()).length === 0) {
      const { status } = await via1.getBackupOperationStatus({ operationId: started.operationId });
      if ((status?.state ?? 0) >= StoreOperationState.SUCCEEDED)
        throw new Error('the capture ended before it could be killed; make the tree bigger');
      if (Date.now() > deadline) throw new Error('the capture never began a multipart upload');
      await new Promise((r) => setTimeout(r, 20));
    }
    doomed.child.kill('SIGKILL');

    const settled = await settle(via1, started.operationId);
    expect([StoreOperationState.SUCCEEDED, StoreOperationState.FAILED]).toContain(settled.state);

    // Every catalogued backup of the tree is whole: each artifact is in the bucket with the
    // sha256 the catalog recorded, and a health check through the surviving replica agrees.
    const { backups } = await via1.listBackups({ treeId: 'big', pageSize: 100 });
    if (settled.state === StoreOperationState.SUCCEEDED) expect(backups).toHaveLength(1);
    for (const backup of backups) {
      const { manifest } = await via2.describeBackup({ backupId: backup.backupId });
      expect(manifest?.artifacts.length).toBeGreaterThan(0);
      for (const artifact of manifest?.artifacts ?? []) {
        const stored = readFileSync(
          join(
            s3.root,
            s3.bucket,
            prefix,
            TENANT,
            backup.backupId,
            `${artifact.artifactId}.ndjson.gz`,
          ),
        );
        expect(createHash('sha256').update(stored).digest('hex')).toBe(artifact.sha256);
      }
      expect(await healthThrough(via2, backup.backupId)).toBe(BackupHealthStatus.HEALTHY);
    }

    // What the killed replica left in flight (if its work was failed rather than finished):
    // scrub must find and remove it.
    const leftBehind = (await incompleteUploads()).length;
    // Scrub, as run a day later, leaves no incomplete multipart upload behind.
    const scrubbed = await scrubCatalog(
      replica1.server.storage,
      new S3ArtifactStore(objects),
      TENANT,
      { prune: true, now: Date.now() + 2 * DAY_MS },
    );
    expect(scrubbed.findings.filter((f) => f.problem !== 'orphan')).toEqual([]);
    expect(scrubbed.orphansPruned).toBeGreaterThanOrEqual(leftBehind);
    expect(await incompleteUploads()).toEqual([]);
  });
});
