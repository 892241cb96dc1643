// Issue 36 bullet 6: drills run on any replica. Two servers on one database (SQLite file or
// PostgreSQL schema) and one artifact store (a shared directory, or one S3 bucket through a real
// `rclone serve s3`), each with its own runner: a drill started on replica A is seen running and
// cancelled from replica B, leaves no scratch tree, and a drill's result and the scope's history
// read the same from both.
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  RestoreDrillOutcome,
  RestoreDrillService,
  StoreOperationState,
  TreeDataService,
  BackupControlService,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allScratchTrees } from '../../src/storage/backup/drills/restore-drill-store.js';
import { scratchEntriesTables } from '../../src/storage/data/scratch-entries.js';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
} from '../support/artifact-stores.js';
import { bearerInterceptor } from '../support/bearer.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { DIALECTS, newStorageLocation } from '../support/test-storage.js';
import { ADMIN_TOKEN } from './backup-fixture.js';

afterAll(closeSharedS3Server);

function clientsOf(server: TestServer) {
  const transport = createGrpcTransport({
    baseUrl: server.server.grpcUrl,
    interceptors: [bearerInterceptor(ADMIN_TOKEN)],
  });
  return {
    drills: createClient(RestoreDrillService, transport),
    backup: createClient(BackupControlService, transport),
    data: createClient(TreeDataService, transport),
  };
}
type Clients = ReturnType<typeof clientsOf>;

/** Polls one replica until `done` holds for the drill's status; every poll must see it. */
async function waitFor(
  via: Clients,
  operationId: string,
  done: (state: StoreOperationState) => boolean,
) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { status } = await via.drills.getRestoreDrillStatus({ operationId });
    if (!status) throw new Error(`drill ${operationId} is not visible on this replica`);
    if (done(status.state)) return status;
    if (Date.now() > deadline) throw new Error(`drill ${operationId} still ${status.state}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(DIALECTS)('drills on two replicas of one %s database', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    const location = newStorageLocation(dialect);
    let a: TestServer;
    let b: TestServer;
    let viaA: Clients;
    let viaB: Clients;
    let backupId: string;
    beforeAll(async () => {
      const target = await storeUnderTest(kind);
      const env = {
        STORE_BOOTSTRAP_TOKEN: ADMIN_TOKEN,
        // The directory store shares one folder, as replicas share a volume; S3 one bucket.
        ...(kind === 'directory'
          ? { STORE_ARTIFACT_DIR: join(location.dataDir, 'shared-artifacts') }
          : target.env),
      };
      a = await startTestServer(dialect, env, location);
      // The second replica: its own runner and listeners, the same database and artifacts.
      b = await startTestServer(dialect, env, location);
      viaA = clientsOf(a);
      viaB = clientsOf(b);
      const entries = Array.from({ length: 400 }, (_, i) => ({
        key: `k${String(i).padStart(4, '0')}`,
        valueJson: JSON.stringify({ i }),
      }));
      await viaA.data.putEntries({ treeId: 'orders', entries });
      const started = await viaA.backup.startBackup({
        name: 'shared',
        scope: { treeId: 'orders' },
      });
      for (;;) {
        const { status } = await viaB.backup.getBackupOperationStatus({
          operationId: started.operationId,
        });
        if (status && status.state >= StoreOperationState.SUCCEEDED) {
          if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'failed');
          backupId = status.result.value.backupId;
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    });
    afterAll(async () => {
      await b?.server.stop();
      await a?.dispose();
    });

    it('a drill started on A is seen running on B, cancelled from B, and leaves no scratch tree', async () => {
      // Throttled to 40 entries a second: 400 entries take 10 s to apply, time to cancel.
      const { operationId } = await viaA.drills.startRestoreDrill({
        target: { case: 'backupId', value: backupId },
        maxEntriesPerSecond: 40,
      });
      await waitFor(viaB, operationId, (state) => state === StoreOperationState.RUNNING);
      const cancelling = await viaB.drills.cancelRestoreDrill({ operationId });
      expect(cancelling.status?.operationId).toBe(operationId);
      const ended = await waitFor(viaA, operationId, (s) => s >= StoreOperationState.SUCCEEDED);
      expect(ended.state).toBe(StoreOperationState.CANCELLED);
      expect((await waitFor(viaB, operationId, () => true)).state).toBe(
        StoreOperationState.CANCELLED,
      );
      // Whichever replica ran it dropped its scratch tree (or the next sweep does): none left.
      const deadline = Date.now() + 10_000;
      while ((await allScratchTrees(a.server.storage, 'default')).length > 0) {
        if (Date.now() > deadline) throw new Error('a scratch tree is left after the cancel');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await scratchEntriesTables(a.server.storage)).toEqual([]);
      const result = await viaB.drills.getRestoreDrillResult({ operationId });
      expect(result.available).toBe(false);
    });

    it("a drill started on B is PROVEN, and its result and the scope's history read the same on A", async () => {
      const { operationId } = await viaB.drills.startRestoreDrill({
        target: { case: 'backupId', value: backupId },
        sampleSeed: 7,
      });
      const done = await waitFor(viaA, operationId, (s) => s >= StoreOperationState.SUCCEEDED);
      expect(done.state).toBe(StoreOperationState.SUCCEEDED);
      const onA = await viaA.drills.getRestoreDrillResult({ operationId });
      const onB = await viaB.drills.getRestoreDrillResult({ operationId });
      expect(onA).toMatchObject({
        available: true,
        outcome: RestoreDrillOutcome.PROVEN,
        entries: 400n,
        sampleSeed: 7,
      });
      expect(onB).toEqual(onA);
      const historyA = await viaA.drills.listRestoreDrills({ scope: { treeId: 'orders' } });
      const historyB = await viaB.drills.listRestoreDrills({ scope: { treeId: 'orders' } });
      // The cancelled drill recorded no result: the history holds the proven one alone.
      expect(historyA.drills.map((d) => [d.operationId, d.outcome])).toEqual([
        [operationId, RestoreDrillOutcome.PROVEN],
      ]);
      expect(historyB).toEqual(historyA);
    });
  });
});
