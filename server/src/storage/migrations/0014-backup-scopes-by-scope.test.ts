import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { getScope } from '../backup/backup-scope-store.js';
import { int64 } from './column-types.js';
import { backupScopesByScope } from './0014-backup-scopes-by-scope.js';

const HOUR = 3_600_000;

describe.each(DIALECTS)(
  'migration 0014 (backup scopes keyed by tree + key prefix) on %s',
  (dialect) => {
    const freshStorage = storagePerTest(dialect);

    it('an existing schedule keyed by tree becomes the scope with an empty key prefix; a prefixed one moves to its own scope', async () => {
      const storage = await freshStorage();
      const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      // backup_scopes as migration 0006 made it: one row per tree.
      const big = int64(dialect);
      await db.schema.dropTable('backup_scopes').execute();
      await db.schema
        .createTable('backup_scopes')
        .addColumn('tenant', 'text', (c) => c.notNull())
        .addColumn('tree_name', 'text', (c) => c.notNull())
        .addColumn('full_interval_ms', big)
        .addColumn('full_key_prefix', 'text')
        .addColumn('full_next_run_at', big)
        .addColumn('incremental_interval_ms', big)
        .addColumn('incremental_key_prefix', 'text')
        .addColumn('incremental_next_run_at', big)
        .addColumn('last_full_run_at', big)
        .addColumn('last_full_success_at', big)
        .addColumn('last_incremental_run_at', big)
        .addColumn('last_incremental_success_at', big)
        .addColumn('last_outcome', 'text', (c) => c.notNull().defaultTo('NONE'))
        .addColumn('updated_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_scopes_pk', ['tenant', 'tree_name'])
        .execute();
      const none = {
        full_interval_ms: null,
        full_key_prefix: null,
        full_next_run_at: null,
        incremental_interval_ms: null,
        incremental_key_prefix: null,
        incremental_next_run_at: null,
        last_full_run_at: null,
        last_full_success_at: null,
        last_incremental_run_at: null,
        last_incremental_success_at: null,
        last_outcome: 'NONE',
        updated_at: 1,
      };
      await db
        .insertInto('backup_scopes')
        .values([
          {
            ...none,
            tenant: 'default',
            tree_name: 'orders',
            full_interval_ms: 24 * HOUR,
            full_next_run_at: 5_000,
            last_full_run_at: 10,
            last_full_success_at: 20,
            last_outcome: 'SUCCEEDED',
          },
          {
            ...none,
            tenant: 'default',
            tree_name: 'mixed',
            full_interval_ms: HOUR,
            full_key_prefix: 'eu/',
            full_next_run_at: 7_000,
            incremental_interval_ms: 2 * HOUR,
            incremental_next_run_at: 8_000,
            last_incremental_success_at: 30,
          },
        ])
        .execute();

      await backupScopesByScope(dialect).up(storage.db as unknown as Kysely<unknown>);

      const scope = (treeName: string, keyPrefix: string) =>
        getScope(storage, { tenant: 'default', treeName, keyPrefix });
      expect(await scope('orders', '')).toMatchObject({
        fullIntervalMs: 24 * HOUR,
        fullNextRunAt: 5_000,
        incrementalIntervalMs: null,
        lastFullRunAt: 10,
        lastFullSuccessAt: 20,
        lastOutcome: 'SUCCEEDED',
      });
      // The tree's run status and its unprefixed incremental stay on the whole tree's scope...
      expect(await scope('mixed', '')).toMatchObject({
        fullIntervalMs: null,
        incrementalIntervalMs: 2 * HOUR,
        incrementalNextRunAt: 8_000,
        lastIncrementalSuccessAt: 30,
      });
      // ...and the full schedule registered with a prefix goes on capturing that prefix.
      expect(await scope('mixed', 'eu/')).toMatchObject({
        fullIntervalMs: HOUR,
        fullNextRunAt: 7_000,
        incrementalIntervalMs: null,
        lastOutcome: 'NONE',
      });
      const rows = await storage.db.selectFrom('backup_scopes').select('key_prefix').execute();
      expect(rows).toHaveLength(3);
    });
  },
);
