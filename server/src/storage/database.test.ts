import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DIALECTS, openTestStorage, TEST_DATABASE_URL } from '../../test/support/test-storage.js';
import { storagePerTest } from '../../test/support/storage-per-test.js';
import { openStorage } from './database.js';

describe.each(DIALECTS)('storage on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);

  it('applies the migrations and orders keys byte-wise', async () => {
    const storage = await freshStorage();
    const now = Date.now();
    const keys = ['b', 'B', 'a', 'é', 'a-1', 'a_1', 'Z'];
    for (const key of keys) {
      await storage.db
        .insertInto('entries')
        .values({
          physical_tree_id: 'p1',
          key,
          value_json: '1',
          tombstone: 0,
          sequence: 1,
          schema_version: 0,
          updated_at: now,
        })
        .execute();
    }
    const rows = await storage.db.selectFrom('entries').select('key').orderBy('key').execute();
    const byteOrder = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(rows.map((r) => r.key)).toEqual(byteOrder);
    const big = await sql<{ v: number }>`select ${2 ** 40} as v`.execute(storage.db);
    expect(Number(big.rows[0]?.v)).toBe(2 ** 40);
  });

  it('applies each versioned migration once: a second open of the same storage finds them done', async () => {
    const storage = await freshStorage();
    const applied = async (db: typeof storage.db) =>
      (
        await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)
      ).rows.map((r) => r.name);
    const first = await applied(storage.db);
    expect(first.length).toBeGreaterThan(3);
    expect(first[0]).toMatch(/^0001-/);
    const again = await openStorage(storage.location);
    try {
      expect(await applied(again.db)).toEqual(first);
    } finally {
      await again.close();
    }
    if (dialect === 'sqlite') {
      // The embedded default: a file in the data directory, in WAL mode.
      expect(storage.sqliteFile?.startsWith(storage.location.dataDir)).toBe(true);
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(storage.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
    }
  });
});

describe('storage on postgres, a database shared with others', () => {
  it('opens while another session keeps creating and dropping its own schema (catalog races are retried)', async () => {
    const churn = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await churn.connect();
    const schema = `churn_${randomBytes(4).toString('hex')}`;
    let stop = false;
    const churning = (async () => {
      for (let i = 0; !stop; i++) {
        await churn.query(
          `create schema if not exists ${schema}; create table if not exists ${schema}.t${i % 5} (id serial primary key)`,
        );
        await churn.query(`drop schema ${schema} cascade`);
      }
    })();
    const failures: string[] = [];
    try {
      // Without the retry about one open in thirty failed on this machine.
      for (let i = 0; i < 40; i++) {
        try {
          const storage = await openTestStorage('postgres');
          await storage.dispose();
        } catch (error) {
          failures.push(String(error));
        }
      }
    } finally {
      stop = true;
      await churning;
      await churn.query(`drop schema if exists ${schema} cascade`);
      await churn.end();
    }
    expect(failures).toEqual([]);
  });
});
