import { resolveTree } from '../../server/src/storage/data/tree-lock.js';
import type { Storage } from '../../server/src/storage/database.js';

/**
 * Removes a logical tree a bench round restored into and returns its physical tree, which the
 * caller then drops (in its own process or the server's): the rounds after it restore again.
 */
export async function unlinkTree(storage: Storage, tenant: string, name: string): Promise<string> {
  const tree = await resolveTree(storage, tenant, name);
  if (!tree) throw new Error(`restore ${name} left no tree`);
  await storage.db
    .deleteFrom('trees')
    .where('tenant', '=', tenant)
    .where('name', '=', name)
    .execute();
  return tree.physicalTreeId;
}
