// Issue 37 bullet 3 (and its test in bullet 7): the kept live-entry counts survive a SIGKILL of
// the shipped server in the middle of 16 concurrent writers — puts, deletes and PutEntries
// batches over overlapping keys of four trees — because each write changes them in its own
// transaction. After a restart, every tree's kept count equals count(*) of its entries, and
// ListTrees says so.
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { TreeDataService } from '@store/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { openStorage } from '../src/storage/database.js';
import { checkKeptCounts } from '../src/storage/data/kept-counts.js';
import { bearerInterceptor } from './support/bearer.js';
import { spawnServer, type ServerProcess } from './support/server-process.js';
import {
  DIALECTS,
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from './support/test-storage.js';

const TOKEN = 'kept-counts-crash-admin-token-0123456789';
const WRITERS = 16;
const TREES = ['t0', 't1', 't2', 't3'];
/** Keys per tree: small, so writers overwrite and delete each other's entries. */
const KEYS = 300;
/** Writes acknowledged before the kill, so it lands while the writers are in full flow. */
const WRITES_BEFORE_KILL = 400;

function settingsOf(location: TestStorageLocation): Record<string, string> {
  return {
    STORE_BOOTSTRAP_TOKEN: TOKEN,
    STORE_DATA_DIR: location.dataDir,
    STORE_HTTP_PORT: '0',
    STORE_GRPC_PORT: '0',
    STORE_METRICS_PORT: '0',
    STORE_LOG_LEVEL: 'warn',
    ...(location.databaseUrl && { DATABASE_URL: location.databaseUrl }),
    ...(location.postgresSchema && { STORE_PG_SCHEMA: location.postgresSchema }),
  };
}

function dataClient(grpcUrl: string) {
  return createClient(
    TreeDataService,
    createGrpcTransport({ baseUrl: grpcUrl, interceptors: [bearerInterceptor(TOKEN)] }),
  );
}

/** One writer: puts, deletes and batches at random keys until its calls fail (the kill). */
async function writeUntilKilled(
  data: ReturnType<typeof dataClient>,
  writer: number,
  acknowledged: () => void,
): Promise<number> {
  let failures = 0;
  for (let n = 0; failures === 0; n++) {
    const tree = TREES[(writer + n) % TREES.length]!;
    const key = () => `k${Math.floor(Math.random() * KEYS)}`;
    try {
      if (n % 3 === 0) {
        const entries = Array.from({ length: 50 }, (_, i) => ({
          key: key(),
          valueJson: JSON.stringify({ writer, n, i, pad: 'é'.repeat(n % 7) }),
        }));
        await data.putEntries({ treeId: tree, entries });
      } else if (n % 3 === 1) {
        await data.deleteEntry({ treeId: tree, key: key() });
      } else {
        await data.putEntry({ treeId: tree, key: key(), valueJson: String(n) });
      }
      acknowledged();
    } catch {
      failures++;
    }
  }
  return failures;
}

describe.each(DIALECTS)('kept entry counts after a SIGKILL mid-write on %s', (dialect) => {
  const location = newStorageLocation(dialect);
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop(0);
    await removeStorageLocation(location);
  });

  it('every tree’s kept count equals count(*) after a restart, and ListTrees shows it', async () => {
    const first = await spawnServer(settingsOf(location));
    servers.push(first);
    const data = dataClient(first.grpcUrl);
    let writes = 0;
    let killed = false;
    const writers = Array.from({ length: WRITERS }, (_, writer) =>
      writeUntilKilled(data, writer, () => {
        writes++;
        if (writes >= WRITES_BEFORE_KILL && !killed) {
          killed = true;
          first.child.kill('SIGKILL');
        }
      }),
    );
    const failures = await Promise.all(writers);
    // The kill cut every writer's call in flight.
    expect(failures).toEqual(Array.from({ length: WRITERS }, () => 1));
    if (first.child.exitCode === null && first.child.signalCode === null) {
      await new Promise((resolve) => first.child.once('exit', resolve));
    }
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = await spawnServer(settingsOf(location));
    servers.push(second);
    const storage = await openStorage(location);
    try {
      expect(await checkKeptCounts(storage)).toEqual([]);
      const counted = await storage.db
        .selectFrom('trees')
        .innerJoin('entries', 'entries.physical_tree_id', 'trees.physical_tree_id')
        .select((eb) => ['trees.name', eb.fn.countAll().as('n')])
        .where('entries.tombstone', '=', 0)
        .groupBy('trees.name')
        .orderBy('trees.name')
        .execute();
      const { trees } = await dataClient(second.grpcUrl).listTrees({ pageSize: 10 });
      expect(trees.map((tree) => [tree.treeId, Number(tree.entryCount)])).toEqual(
        counted.map((row) => [row.name, Number(row.n)]),
      );
      // The writers got far enough to make the counts worth checking.
      expect(counted.reduce((n, row) => n + Number(row.n), 0)).toBeGreaterThan(KEYS);
    } finally {
      await storage.close();
    }
  }, 120_000);
});
