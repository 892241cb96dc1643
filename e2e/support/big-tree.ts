import { randomBytes } from 'node:crypto';
import type { StoreApi } from './fixtures';
import { insertIntoLockedTree } from './large-tree';

/**
 * A tree of about `totalBytes` of incompressible values (random base64, 240 KB per entry, under
 * the server's 256 KiB value limit), so its
 * backup artifact stays large after gzip. The first entry goes through the API (creating the
 * tree as the server does); the rest straight into the edge replicas' PostgreSQL schema.
 */
export async function seedIncompressibleTree(
  api: StoreApi,
  tenant: string,
  treeId: string,
  totalBytes: number,
): Promise<void> {
  const schema = process.env.STORE_PG_SCHEMA;
  if (!schema) throw new Error('seedIncompressibleTree needs the edge stack (STORE_PG_SCHEMA)');
  const value = () => JSON.stringify({ blob: randomBytes(180 * 1024).toString('base64') });
  await api.data.putEntry({ treeId, key: 'b-00000', valueJson: value() });
  const count = Math.ceil(totalBytes / (240 * 1024));
  await insertIntoLockedTree(tenant, treeId, schema, count - 1, async (client, tree) => {
    for (let first = 1; first < count; first += 16) {
      const rows = Array.from({ length: Math.min(16, count - first) }, (_, n) => first + n);
      await client.query(
        `insert into entries (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
         values ${rows.map((_, n) => `($1, $${3 * n + 3}, $${3 * n + 4}, 0, $${3 * n + 5}, 0, $2)`).join(', ')}`,
        [
          tree.id,
          Date.now(),
          ...rows.flatMap((i) => [`b-${String(i).padStart(5, '0')}`, value(), tree.last + i]),
        ],
      );
    }
  });
}
