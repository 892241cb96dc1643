import type { Storage } from '../../storage/database.js';
import { readPhysicalEntries } from '../../storage/data/physical-tree-store.js';
import { countLiveEntries } from '../../storage/data/physical-tree-store.js';
import type { StoredEntry } from '../../storage/data/tree-db.js';
import { resolveTree } from '../../storage/data/tree-store.js';
import { createBackgroundYielder } from '../event-loop-yield.js';

/** One page of a tree's live entries, with where to continue. */
export interface TreePage {
  physicalTreeId: string;
  /** Live entries only, in byte order of key. */
  entries: StoredEntry[];
  /** The last key read (tombstones included): the resume point after this page. */
  lastKey: string;
}

/**
 * Reads a tree's live entries page by page in key order, after `afterKey`. The tree is resolved
 * again for every page, so a page always comes from the physical tree the name points at now.
 */
export async function* treePages(
  storage: Storage,
  tenant: string,
  treeName: string,
  pageSize: number,
  afterKey?: string,
): AsyncGenerator<TreePage> {
  let cursor = afterKey;
  const background = createBackgroundYielder(tenant);
  try {
    for (;;) {
      await background.yield();
      const tree = await resolveTree(storage, tenant, treeName);
      if (!tree) return;
      const rows = await readPhysicalEntries(storage, tree.physicalTreeId, {
        limit: pageSize,
        ...(cursor !== undefined && { afterKey: cursor }),
      });
      const last = rows.at(-1);
      if (!last) return;
      cursor = last.key;
      yield {
        physicalTreeId: tree.physicalTreeId,
        entries: rows.filter((row) => !row.tombstone),
        lastKey: last.key,
      };
      if (rows.length < pageSize) return;
    }
  } finally {
    background.release();
  }
}

/** Live entries of a tree now (0 when it does not exist), for progress totals. */
export async function liveEntryCount(
  storage: Storage,
  tenant: string,
  treeName: string,
): Promise<number> {
  const tree = await resolveTree(storage, tenant, treeName);
  return tree ? countLiveEntries(storage, tree.physicalTreeId) : 0;
}
