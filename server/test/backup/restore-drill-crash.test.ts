import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { BackupControlService, RestoreDrillService, StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allScratchTrees } from '../../src/storage/backup/drills/restore-drill-store.js';
import { bulkInsertEntries } from '../../src/storage/data/physical-tree-store.js';
import {
  scratchEntriesTable,
  scratchEntriesTables,
} from '../../src/storage/data/scratch-entries.js';
import { ensureTree } from '../../src/storage/data/tree-store.js';
import { bearerInterceptor } from '../support/bearer.js';
import { spawnServer, type ServerProcess } from '../support/server-process.js';
import { DIALECTS, openTestStorage } from '../support/test-storage.js';

const TOKEN = 'drill-crash-admin-token-0123456789';
const ENTRIES = 20_000;

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Issue 36 bullet 2/7: a drill SIGKILLed mid-restore leaves its scratch tree behind only until
// the server is back: the start sweep or the drill's resumed run drops it, and a cancel of the
// resumed drill leaves no scratch tree at all.
describe.each(DIALECTS)('a restore drill killed mid-drill on %s', (dialect) => {
  let storage: Awaited<ReturnType<typeof openTestStorage>>;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    storage = await openTestStorage(dialect);
    const tree = await ensureTree(storage, 'default', 'big', Date.now());
    const entries = Array.from({ length: ENTRIES }, (_, i) => ({
      key: `key-${String(i).padStart(6, '0')}`,
      valueJson: JSON.stringify({ i, text: `value number ${i}` }),
      tombstone: false,
      sequence: i + 1,
      schemaVersion: 0,
      updatedAt: Date.now(),
    }));
    await bulkInsertEntries(storage, tree.physicalTreeId, entries);
  });
  afterAll(async () => {
    await server?.stop();
    await storage?.dispose();
  });

  const start = () => {
    const { location } = storage;
    return spawnServer({
      STORE_DATA_DIR: location.dataDir,
      STORE_ARTIFACT_DIR: join(location.dataDir, 'artifacts'),
      STORE_BOOTSTRAP_TOKEN: TOKEN,
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
      STORE_LOG_LEVEL: 'warn',
      // A short lease, so on PostgreSQL (where a RUNNING drill may be another replica's) the
      // killed drill is known dead soon after the restart.
      STORE_OPERATION_LEASE_MS: '2000',
      ...(location.databaseUrl && {
        DATABASE_URL: location.databaseUrl,
        STORE_PG_SCHEMA: location.postgresSchema!,
      }),
    });
  };
  const clients = (grpcUrl: string) => {
    const transport = createGrpcTransport({
      baseUrl: grpcUrl,
      interceptors: [bearerInterceptor(TOKEN)],
    });
    return {
      backup: createClient(BackupControlService, transport),
      drills: createClient(RestoreDrillService, transport),
    };
  };

  it('leaves no scratch tree once the server is back', async () => {
    server = await start();
    const first = clients(server.grpcUrl);
    const captured = await first.backup.startBackup({ name: 'big', scope: { treeId: 'big' } });
    const backupId = await until('the capture', async () => {
      const { status } = await first.backup.getBackupOperationStatus({
        operationId: captured.operationId,
      });
      if (status?.state !== StoreOperationState.SUCCEEDED) return undefined;
      return status.result.case === 'capture' ? status.result.value.backupId : undefined;
    });
    // Throttled to 2000 entries a second: 10 s of applying, so the kill lands mid-drill.
    const drill = await first.drills.startRestoreDrill({
      target: { case: 'backupId', value: backupId },
      maxEntriesPerSecond: 2000,
    });
    const [scratch] = await until('the scratch tree to fill', async () => {
      const { status } = await first.drills.getRestoreDrillStatus({
        operationId: drill.operationId,
      });
      const trees = await allScratchTrees(storage, 'default');
      return trees.length === 1 && Number(status?.progress?.done ?? 0) > 0 ? trees : undefined;
    });
    server.child.kill('SIGKILL');
    await new Promise((resolve) => server!.child.once('exit', resolve));
    expect(await allScratchTrees(storage, 'default')).toEqual([scratch]);
    // PostgreSQL: its unlogged table is left too, until the sweep drops it with the tree.
    expect(await scratchEntriesTables(storage)).toEqual(
      dialect === 'postgres' ? [scratchEntriesTable(scratch!)] : [],
    );

    server = await start();
    const second = clients(server.grpcUrl);
    // The killed drill's tree goes (the start sweep, or the resumed drill dropping it first).
    await until('the killed drill’s scratch tree to go', async () =>
      (await allScratchTrees(storage, 'default')).includes(scratch!) ? undefined : true,
    );
    await second.drills.cancelRestoreDrill({ operationId: drill.operationId });
    const ended = await until('the drill to end', async () => {
      const { status } = await second.drills.getRestoreDrillStatus({
        operationId: drill.operationId,
      });
      return status && status.state >= StoreOperationState.SUCCEEDED ? status : undefined;
    });
    expect([StoreOperationState.CANCELLED, StoreOperationState.SUCCEEDED]).toContain(ended.state);
    // Its own scratch tree is dropped after it ends, in the background.
    await until('the resumed drill’s scratch tree to go', async () =>
      (await allScratchTrees(storage, 'default')).length === 0 ? true : undefined,
    );
    expect(await scratchEntriesTables(storage)).toEqual([]);
  });
});
