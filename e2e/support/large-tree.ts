import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { StoreApi } from './fixtures';

/**
 * A tree with `count` entries, fast: the first entry goes through the API (which creates the
 * tree as the server does), the rest straight into the stack's database (its SQLite file, or the
 * edge replicas' PostgreSQL schema) in one transaction, continuing the tree's own sequence.
 * Through the API, 2 000 puts take ~20 s on the test machine; this takes about a second. Needs
 * the stack's storage (not an external stack).
 */
export async function seedLargeTree(
  api: StoreApi,
  tenant: string,
  treeId: string,
  count: number,
): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  const schema = process.env.STORE_PG_SCHEMA;
  if (!dataDir && !schema)
    throw new Error('seedLargeTree needs E2E_DATA_DIR or STORE_PG_SCHEMA (a stack started here)');
  await api.data.putEntry({ treeId, key: 'k-0000000', valueJson: '{"n":0}' });
  if (!dataDir) return seedPostgres(tenant, treeId, count, schema!);
  const db = new SQLite(join(dataDir, 'store.sqlite'));
  try {
    db.pragma('busy_timeout = 10000');
    const tree = db
      .prepare('SELECT physical_tree_id AS id FROM trees WHERE tenant = ? AND name = ?')
      .get(tenant, treeId) as { id: string } | undefined;
    if (!tree) throw new Error(`tree ${treeId} of ${tenant} was not created`);
    const insert = db.prepare(
      'INSERT INTO entries (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at) VALUES (?, ?, ?, 0, ?, 0, ?)',
    );
    // BEGIN IMMEDIATE: a deferred transaction that reads first cannot wait for the server's
    // own writes (its audit records land right after the put above); it fails "locked" at once.
    const seed = db.transaction(() => {
      const { last } = db
        .prepare('SELECT last_sequence AS last FROM physical_trees WHERE id = ?')
        .get(tree.id) as { last: number };
      const now = Date.now();
      for (let i = 1; i < count; i++) {
        const key = `k-${String(i).padStart(7, '0')}`;
        insert.run(tree.id, key, `{"n":${i}}`, last + i, now);
      }
      db.prepare('UPDATE physical_trees SET last_sequence = ? WHERE id = ?').run(
        last + count - 1,
        tree.id,
      );
    });
    seed.immediate();
  } finally {
    db.close();
  }
}

/**
 * Runs `insert` in one transaction on the tree's physical tree, locked, then moves its
 * last_sequence past the `added` entries `insert` wrote with sequences last+1 … last+added.
 */
export async function insertIntoLockedTree(
  tenant: string,
  treeId: string,
  schema: string,
  added: number,
  insert: (client: pg.Client, tree: { id: string; last: number }) => Promise<void>,
): Promise<void> {
  const client = new pg.Client({
    connectionString: process.env.DATABASE_URL,
    options: `-c search_path=${schema}`,
  });
  await client.connect();
  try {
    await client.query('begin');
    const tree = await client.query<{ id: string; last: string }>(
      `select t.physical_tree_id as id, p.last_sequence as last from trees t
         join physical_trees p on p.id = t.physical_tree_id
        where t.tenant = $1 and t.name = $2 for update of p`,
      [tenant, treeId],
    );
    const row = tree.rows[0];
    if (!row) throw new Error(`tree ${treeId} of ${tenant} was not created`);
    const last = Number(row.last);
    await insert(client, { id: row.id, last });
    await client.query('update physical_trees set last_sequence = $1 where id = $2', [
      last + added,
      row.id,
    ]);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

function seedPostgres(tenant: string, treeId: string, count: number, schema: string) {
  return insertIntoLockedTree(tenant, treeId, schema, count - 1, (client, tree) =>
    client
      .query(
        `insert into entries (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
         select $1, 'k-' || lpad(i::text, 7, '0'), '{"n":' || i || '}', 0, $2::bigint + i, 0, $3::bigint
           from generate_series(1, $4::int - 1) as i`,
        [tree.id, tree.last, Date.now(), count],
      )
      .then(() => undefined),
  );
}
