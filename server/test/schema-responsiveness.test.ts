import { StoreOperationState } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkInsertEntries } from '../src/storage/data/physical-tree-store.js';
import { resolveTree } from '../src/storage/data/tree-store.js';
import { startSchemaHarness, type SchemaHarness } from './support/schema-harness.js';

// better-sqlite3 answers synchronously and a migration's pages are pure database work, so a run
// used to hold the event loop until it ended: its own Start RPC and every status poll were
// answered only then. Calls made while it runs must be answered while it runs.
describe('a long migration on SQLite', () => {
  let h: SchemaHarness;
  beforeAll(async () => {
    h = await startSchemaHarness('sqlite');
    await h.schema.setVersionConfig('big', { currentVersion: 1, targetVersion: 1 }, h.admin);
    // One put creates the tree; the bulk goes in through storage (a migration of 40 000 entries
    // takes long enough to be polled many times, and puts one by one would take most of a minute).
    await h.put('big', 'k00000', { n: 1 });
    const tree = await resolveTree(h.t.server.storage, 'default', 'big');
    const entries = Array.from({ length: 40_000 }, (_, i) => ({
      key: `k${String(i).padStart(5, '0')}`,
      valueJson: '{"n":1}',
      tombstone: false,
      sequence: i + 2,
      schemaVersion: 1,
      updatedAt: 1,
    }));
    for (let i = 0; i < entries.length; i += 5_000) {
      await bulkInsertEntries(
        h.t.server.storage,
        tree!.physicalTreeId,
        entries.slice(i, i + 5_000),
      );
    }
    await h.schema.setVersionConfig(
      'big',
      {
        currentVersion: 1,
        targetVersion: 2,
        migrations: [
          {
            fromVersion: 1,
            toVersion: 2,
            transform: { ops: [{ op: 'add', path: '/migrated', valueJson: 'true' }] },
          },
        ],
      },
      h.admin,
    );
  });
  afterAll(async () => {
    await h?.t.dispose();
  });

  it('leaves the server answering other calls while it runs', async () => {
    const { operationId } = await h.schema.startMigration('big', 'responsive-1', h.admin);
    let seenRunning = 0;
    for (;;) {
      const status = await h.schema.getSchemaOperationStatus(operationId, h.admin);
      if (!status) throw new Error('operation not visible');
      if (status.state === StoreOperationState.RUNNING) seenRunning += 1;
      if (status.state >= StoreOperationState.SUCCEEDED) {
        expect(status.state).toBe(StoreOperationState.SUCCEEDED);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(seenRunning).toBeGreaterThanOrEqual(2);
  });
});
