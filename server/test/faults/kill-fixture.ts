// Shared by the kill-and-restart tests: one storage location, the real server as a child process
// that a test SIGKILLs and starts again on the same storage, typed clients to whichever process
// is current, and direct storage access for what no RPC shows (physical trees, raw entries).
import { createClient, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  SchemaControlService,
  StoreOperationState,
  TreeDataService,
  type StoreOperationStatus,
} from '@store/contract';
import { openStorage, type Dialect, type Storage } from '../../src/storage/database.js';
import { bulkInsertEntries } from '../../src/storage/data/physical-tree-store.js';
import { ensureTree, listLiveEntries } from '../../src/storage/data/tree-store.js';
import {
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from '../support/test-storage.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

export const TENANT = 'default';
const TOKEN = 'kill-test-admin-token-0123456789abcdef';
const ENV = {
  STORE_BOOTSTRAP_TOKEN: TOKEN,
  // A short lease, so a restarted PostgreSQL server takes over the dead one's work quickly.
  STORE_OPERATION_LEASE_MS: '1000',
  // Read by server-child.ts: stretch captures (per page) and restores (per batch), which now
  // stream through COPY too fast for a kill to land mid-run.
  TEST_CAPTURE_PAGE_PAUSE_MS: '2',
  TEST_RESTORE_BATCH_PAUSE_MS: '40',
};

function clientsOf(server: ServerProcess) {
  const auth: Interceptor = (next) => (req) => {
    req.header.set('authorization', `Bearer ${TOKEN}`);
    return next(req);
  };
  const transport = createGrpcTransport({ baseUrl: server.grpcUrl, interceptors: [auth] });
  return {
    backup: createClient(BackupControlService, transport),
    schema: createClient(SchemaControlService, transport),
    data: createClient(TreeDataService, transport),
  };
}

export type KillHarness = Awaited<ReturnType<typeof startKillHarness>>;

/** Storage plus a server process on it; kill() and restart() swap the process underneath. */
export async function startKillHarness(dialect: Dialect) {
  const location: TestStorageLocation = newStorageLocation(dialect);
  const storage: Storage = await openStorage(location);
  let server = await spawnServer(location, { env: ENV });
  let clients = clientsOf(server);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  return {
    location,
    storage,
    get clients() {
      return clients;
    },
    /** SIGKILL, as a crash or the OOM killer would. */
    async kill() {
      await server.kill();
    },
    /** A new server process on the same storage (killing the current one if it still runs). */
    async restart() {
      await server.kill();
      server = await spawnServer(location, { env: ENV });
      clients = clientsOf(server);
    },
    /** Polls `condition` every 10 ms until it holds. */
    async until(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!(await condition())) {
        if (Date.now() > deadline) throw new Error('condition not reached in time');
        await sleep(10);
      }
    },
    /** Polls until the operation is terminal (SUCCEEDED, FAILED, CANCELLED) and returns it. */
    async settle(
      operationId: string,
      service: 'backup' | 'schema',
      timeoutMs = 30_000,
    ): Promise<StoreOperationStatus> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const status =
          service === 'backup'
            ? (await clients.backup.getBackupOperationStatus({ operationId })).status
            : (await clients.schema.getSchemaOperationStatus({ operationId })).status;
        if (status && status.state >= StoreOperationState.SUCCEEDED) return status;
        if (Date.now() > deadline) {
          throw new Error(`operation ${operationId} still ${status?.state ?? 'unknown'}`);
        }
        await sleep(50);
      }
    },
    /** Fills a tree straight in storage (fast): key-000000… → value(i), at schemaVersion. */
    async fill(
      treeName: string,
      count: number,
      value: (i: number) => unknown,
      schemaVersion = 0,
    ): Promise<Record<string, unknown>> {
      const tree = await ensureTree(storage, TENANT, treeName, Date.now());
      const expected: Record<string, unknown> = {};
      const entries = Array.from({ length: count }, (_, i) => {
        const key = `key-${String(i).padStart(6, '0')}`;
        expected[key] = value(i);
        return {
          key,
          valueJson: JSON.stringify(value(i)),
          tombstone: false,
          sequence: i + 1,
          schemaVersion,
          updatedAt: Date.now(),
        };
      });
      await bulkInsertEntries(storage, tree.physicalTreeId, entries);
      return expected;
    },
    /** Every live entry of a tree as the server shows it, key → parsed value. */
    async read(treeId: string): Promise<Record<string, unknown>> {
      const out: Record<string, unknown> = {};
      let pageToken = '';
      do {
        const page = await clients.data.listEntries({ treeId, pageSize: 1000, pageToken });
        for (const e of page.entries) out[e.key] = JSON.parse(e.valueJson) as unknown;
        pageToken = page.nextPageToken;
      } while (pageToken !== '');
      return out;
    },
    /** Every live entry of a tree read straight from storage (with no server running). */
    async readStored(treeName: string): Promise<Record<string, unknown>> {
      const out: Record<string, unknown> = {};
      let afterKey: string | undefined;
      for (;;) {
        const page = await listLiveEntries(storage, TENANT, treeName, { afterKey, limit: 5000 });
        for (const e of page) out[e.key] = JSON.parse(e.valueJson ?? 'null') as unknown;
        if (page.length < 5000) return out;
        afterKey = page[page.length - 1]?.key;
      }
    },
    /** Operations of any kind still RUNNING in storage. */
    async running(): Promise<string[]> {
      const rows = await storage.db
        .selectFrom('operations')
        .select(['id', 'kind'])
        .where('state', '=', 'RUNNING')
        .execute();
      return rows.map((r) => `${r.kind} ${r.id}`);
    },
    async dispose() {
      await server.kill();
      await storage.close();
      await removeStorageLocation(location);
    },
  };
}
