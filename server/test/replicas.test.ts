// Issue 9, two-server test: replicas behind Envoy share one PostgreSQL and one artifact volume
// (DESIGN.md §1, Scale-out). Replica A runs in this process, replica B is the shipped server in a
// process of its own, so nothing but the database and the directory connects them.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { createClient, type Transport } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  StoreOperationState,
  durationFromMs,
  type StoreOperationStatus,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTree } from './support/schema-fixtures.js';
import { spawnServer, type ServerProcess } from './support/server-process.js';
import { startTestServer, type TestServer } from './support/test-server.js';
import { newStorageLocation } from './support/test-storage.js';
import { bearerInterceptor } from './support/bearer.js';

const TOKEN = 'replica-test-admin-token-0123456789';
const INTERVAL_MS = 1000;

type BackupClient = ReturnType<typeof createClient<typeof BackupControlService>>;

function backupClient(grpcUrl: string): BackupClient {
  const withToken = bearerInterceptor(TOKEN);
  const transport: Transport = createGrpcTransport({ baseUrl: grpcUrl, interceptors: [withToken] });
  return createClient(BackupControlService, transport);
}

/** Polls one replica until the operation is terminal; every poll must see it. */
async function settle(client: BackupClient, operationId: string): Promise<StoreOperationStatus> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { status } = await client.getBackupOperationStatus({ operationId });
    if (!status) throw new Error(`operation ${operationId} is not visible here`);
    if (status.state >= StoreOperationState.SUCCEEDED) return status;
    if (Date.now() > deadline) throw new Error(`operation ${operationId} still ${status.state}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The sha256 of an artifact as one replica exports it. */
async function exportedSha256(client: BackupClient, backupId: string, artifactId: string) {
  const hash = createHash('sha256');
  for await (const chunk of client.exportArtifact({ backupId, artifactId }))
    hash.update(chunk.data);
  return hash.digest('hex');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two server replicas on one PostgreSQL schema and one artifact directory', () => {
  const location = newStorageLocation('postgres');
  const artifactDir = join(location.dataDir, 'shared-artifacts');
  const replicaBDataDir = mkdtempSync(join(tmpdir(), 'store-replica-b-'));
  // A test-only scheduler minimum of 1 s, so schedules fire within the test.
  const shared = {
    STORE_ARTIFACT_DIR: artifactDir,
    STORE_SCHEDULER_MIN_INTERVAL: '1',
    STORE_BOOTSTRAP_TOKEN: TOKEN,
  };
  let a: TestServer;
  let b: ServerProcess;
  let viaA: BackupClient;
  let viaB: BackupClient;

  beforeAll(async () => {
    a = await startTestServer('postgres', shared, location);
    b = await spawnServer({
      ...shared,
      // Its own data directory: only the database and the artifact directory are shared.
      STORE_DATA_DIR: replicaBDataDir,
      DATABASE_URL: location.databaseUrl!,
      STORE_PG_SCHEMA: location.postgresSchema!,
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
      STORE_LOG_LEVEL: 'warn',
    });
    viaA = backupClient(a.server.grpcUrl);
    viaB = backupClient(b.grpcUrl);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.dispose();
    rmSync(replicaBDataDir, { recursive: true, force: true });
  });

  it('an operation started on one replica is polled to completion on the other, both ways', async () => {
    await seedTree(
      a.server.storage,
      'default',
      'orders',
      Array.from({ length: 3000 }, (_, i) => [`k${String(i).padStart(5, '0')}`, { i }, 0] as const),
    );
    // Started on B, polled on A; then the other way round.
    const first = await viaB.startBackup({
      name: 'via-b',
      scope: { treeId: 'orders' },
      pageSize: 100,
    });
    const second = await viaA.startBackup({ name: 'via-a', scope: { treeId: 'orders' } });
    const [firstDone, secondDone] = [
      await settle(viaA, first.operationId),
      await settle(viaB, second.operationId),
    ];
    for (const done of [firstDone, secondDone]) {
      expect(done.state, done.error?.message).toBe(StoreOperationState.SUCCEEDED);
      if (done.result.case !== 'capture') throw new Error('no capture result');
      expect(Number(done.result.value.manifest?.entryCount)).toBe(3000);
    }
    // The catalog and the artifacts are the same on both: each exports what either wrote.
    if (firstDone.result.case !== 'capture') throw new Error('no capture result');
    const { backupId } = firstDone.result.value;
    const described = await viaA.describeBackup({ backupId });
    expect(described.found).toBe(true);
    const artifacts = described.manifest?.artifacts ?? [];
    expect(artifacts.length).toBeGreaterThan(0);
    for (const artifact of artifacts) {
      expect(await exportedSha256(viaA, backupId, artifact.artifactId)).toBe(artifact.sha256);
      expect(await exportedSha256(viaB, backupId, artifact.artifactId)).toBe(artifact.sha256);
    }
  });

  it('a short-interval schedule fires once per period, not once per replica', async () => {
    const treeId = 'ticking';
    await seedTree(a.server.storage, 'default', treeId, [['a', 1, 0]]);
    const scheduled = await viaA.scheduleBackup({
      scope: { treeId },
      incremental: false,
      interval: durationFromMs(INTERVAL_MS),
    });
    expect(scheduled.effectiveInterval && Number(scheduled.effectiveInterval.seconds)).toBe(1);

    // Both replicas tick (every 250 ms) for 5 periods; then A's scheduler stops and B's alone
    // goes on, which shows B was a live candidate all along.
    await sleep(5 * INTERVAL_MS);
    const aStoppedAt = Date.now();
    await a.server.backup.stop();
    await sleep(3 * INTERVAL_MS);
    await viaB.cancelSchedule({ scope: { treeId }, incremental: false });
    // Let the last captures finish.
    await sleep(500);

    const { operations } = await viaB.listBackupOperations({ targetId: treeId, pageSize: 100 });
    const fired = operations
      .filter((o) => o.createdBy === 'scheduler')
      .map((o) => ({ at: timestampMs(o.createdAt!), status: o }))
      .sort((x, y) => x.at - y.at);
    const statuses = await Promise.all(fired.map((f) => settle(viaA, f.status.operationId)));
    const gaps = fired.slice(1).map((f, i) => f.at - fired[i]!.at);
    const bothTicking = fired.filter((f) => f.at < aStoppedAt).length;
    const bAlone = fired.filter((f) => f.at >= aStoppedAt).length;

    // Once per period: consecutive firings are about an interval apart (less the time a slow
    // submit after the claim may take). Firing once per replica would put two within one tick
    // (250 ms) of each other.
    expect(
      gaps.every((gap) => gap >= INTERVAL_MS * 0.5),
      `gaps ${gaps.join(', ')}`,
    ).toBe(true);
    expect(bothTicking).toBeGreaterThanOrEqual(3);
    expect(bothTicking).toBeLessThanOrEqual(6);
    expect(bAlone).toBeGreaterThanOrEqual(2);
    // Each firing made exactly one catalog row.
    const succeeded = statuses.filter((s) => s.state === StoreOperationState.SUCCEEDED).length;
    expect(succeeded).toBe(fired.length);
    const catalog = await viaA.listBackups({ treeId, pageSize: 100 });
    expect(catalog.backups.length).toBe(succeeded);
  });
});
