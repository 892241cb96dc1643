import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import type { StoreApi } from './fixtures';

/**
 * A tree with `count` entries, fast: the first entry goes through the API (which creates the
 * tree as the server does), the rest straight into the stack's SQLite file in one transaction,
 * continuing the tree's own sequence. Through the API, 2 000 puts take ~20 s on the test machine;
 * this takes well under a second. Needs the stack's data directory (not an external stack).
 */
export async function seedLargeTree(
  api: StoreApi,
  tenant: string,
  treeId: string,
  count: number,
): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('seedLargeTree needs E2E_DATA_DIR (the stack started here)');
  await api.data.putEntry({ treeId, key: 'k-0000000', valueJson: '{"n":0}' });
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
    db.transaction(() => {
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
    })();
  } finally {
    db.close();
  }
}
