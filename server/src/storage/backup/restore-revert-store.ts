import type { RestoreRow } from './backup-restore-store.js';
import {
  getPhysicalTree,
  raiseLastSequence,
  swapPhysicalTree,
} from '../data/physical-tree-store.js';
import { selectTreeForUpdate } from '../data/tree-lock.js';
import { withTransaction, type TreeDb } from '../data/tree-db.js';

/**
 * SQL of RevertRestore: counting the writes made into a restored tree since its restore, and the
 * compare-and-set swap back to the physical tree the restore replaced, which discards them.
 */

/** The restore fields a revert needs (an IN_PLACE restore that replaced a tree). */
export type RevertibleRestore = Pick<
  RestoreRow,
  'tenant' | 'operationId' | 'targetTree' | 'restoredPhysicalTreeId' | 'installedSequence'
> & { previousPhysicalTreeId: string };

/**
 * Keys written or deleted in the restored physical tree since its restore was installed (each
 * key once, however often it was written; a delete is a tombstone with its own sequence). Within
 * one physical tree every write takes a sequence above the tree's high-water mark, and the
 * restore recorded that mark when it made the tree visible. A restore stored before the mark was
 * recorded falls back to the replaced tree's mark, which the install raised the restored tree
 * to: a restored entry numbered above it (a backup of another tree with a higher numbering) is
 * then counted too, so the count may be too high, never too low.
 */
export async function writesSinceRestore(
  handle: TreeDb,
  restore: RevertibleRestore,
): Promise<number> {
  const since =
    restore.installedSequence ??
    (await getPhysicalTree(handle, restore.previousPhysicalTreeId))?.lastSequence ??
    0;
  const row = await handle.db
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('physical_tree_id', '=', restore.restoredPhysicalTreeId)
    .where('sequence', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * What the caller saw in the revert preview and agrees to discard: the count of writes since the
 * restore and the restored tree's sequence high-water mark at the preview. The count alone misses
 * a second write to a key it already counted; the mark moves with every write.
 */
export interface RevertAcknowledgment {
  writes: number;
  throughSequence: number;
}

export type RevertOutcome =
  | { status: 'reverted'; discardedWrites: number }
  | { status: 'previous_gone' }
  | { status: 'moved' }
  /** The tree was written since the preview whose mark the acknowledgment carries. */
  | { status: 'written_since_preview'; treeSequence: number }
  /** Writes were made since the restore and the acknowledgment does not name their count. */
  | { status: 'unacknowledged_writes'; writes: number };

/**
 * Swaps a tree back from a restored physical tree to the one it replaced, only while the tree
 * still points at the restored one (compare-and-set), only when nothing was written since the
 * preview the acknowledgment comes from, and only when the writes made since the restore are none
 * or exactly the number acknowledged; keeping the numbering monotonic. The mark and the count are
 * read under the tree's row lock, which every write takes too, so no write slips in between.
 */
export async function revertRestoredTree(
  handle: TreeDb,
  revert: {
    restore: RevertibleRestore;
    acknowledgment: RevertAcknowledgment | undefined;
    now: number;
    /** Who asked for the revert (the caller's subject), kept for "Reverted by <who>". */
    by: string;
  },
): Promise<RevertOutcome> {
  const { restore, acknowledgment, now, by } = revert;
  return withTransaction(handle, async (tx) => {
    const current = await selectTreeForUpdate(tx, restore.tenant, restore.targetTree);
    if (!current || current.physicalTreeId !== restore.restoredPhysicalTreeId) {
      return { status: 'moved' };
    }
    const previous = await getPhysicalTree(tx, restore.previousPhysicalTreeId);
    if (!previous) return { status: 'previous_gone' };
    const restored = await getPhysicalTree(tx, restore.restoredPhysicalTreeId);
    const treeSequence = restored?.lastSequence ?? 0;
    if (acknowledgment && acknowledgment.throughSequence !== treeSequence) {
      return { status: 'written_since_preview', treeSequence };
    }
    const writes = await writesSinceRestore(tx, restore);
    if (writes !== (acknowledgment?.writes ?? 0)) {
      return { status: 'unacknowledged_writes', writes };
    }
    await raiseLastSequence(tx, restore.previousPhysicalTreeId, treeSequence);
    const swap = await swapPhysicalTree(tx, {
      tenant: restore.tenant,
      treeName: restore.targetTree,
      physicalTreeId: restore.previousPhysicalTreeId,
      expectedPhysicalTreeId: restore.restoredPhysicalTreeId,
      now,
    });
    if (!swap.swapped) return { status: 'moved' };
    await tx.db
      .updateTable('backup_restores')
      .set({ reverted_at: now, reverted_by: by })
      .where('tenant', '=', restore.tenant)
      .where('restored_physical_tree_id', '=', restore.restoredPhysicalTreeId)
      .execute();
    return { status: 'reverted', discardedWrites: writes };
  });
}
