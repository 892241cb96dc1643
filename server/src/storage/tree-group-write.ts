import { bulkInsertEntries } from './physical-tree-store.js';
import { withTransaction, type TreeDb } from './tree-db.js';
import { lockOrCreateTree } from './tree-lock.js';

/** One live entry of a group write; canonical JSON and the schema version it was written under. */
export interface GroupEntryWrite {
  key: string;
  valueJson: string;
  schemaVersion: number;
}

/** What a group write did: written from `firstSequence` on, or refused by a write lock. */
export type GroupWriteOutcome =
  | { status: 'written'; firstSequence: number; physicalTreeId: string }
  | { status: 'locked'; lockedBy: string };

/**
 * Writes live entries to one logical tree (creating it on first write) in ONE transaction:
 * the i-th write gets sequence `firstSequence + i`, a consecutive range taken under the tree's
 * row lock, so sequences still follow commit order across writers and replicas. A key written
 * twice keeps its later write (the earlier one's sequence is simply never visible). This is the
 * storage half of group commit: many callers' puts pay one commit and one flush.
 */
export async function writeEntryGroup(
  handle: TreeDb,
  group: { tenant: string; treeName: string; now: number; writes: readonly GroupEntryWrite[] },
): Promise<GroupWriteOutcome> {
  const { tenant, treeName, now, writes } = group;
  if (writes.length === 0) throw new Error('a group write needs at least one entry');
  return withTransaction(handle, async (tx) => {
    const tree = await lockOrCreateTree(tx, tenant, treeName, now);
    if (tree.writeLockedBy !== null) return { status: 'locked', lockedBy: tree.writeLockedBy };
    const last = await advanceSequence(tx, tree.physicalTreeId, writes.length);
    const firstSequence = last - writes.length + 1;
    await bulkInsertEntries(
      tx,
      tree.physicalTreeId,
      writes.map((write, index) => ({
        key: write.key,
        valueJson: write.valueJson,
        tombstone: false,
        sequence: firstSequence + index,
        schemaVersion: write.schemaVersion,
        updatedAt: now,
      })),
    );
    await touchTree(tx, tenant, treeName, now);
    return { status: 'written', firstSequence, physicalTreeId: tree.physicalTreeId };
  });
}

/** Takes `count` sequences of a physical tree; returns the last one taken. */
export async function advanceSequence(
  tx: TreeDb,
  physicalTreeId: string,
  count = 1,
): Promise<number> {
  const row = await tx.db
    .updateTable('physical_trees')
    .set((eb) => ({ last_sequence: eb('last_sequence', '+', count) }))
    .where('id', '=', physicalTreeId)
    .returning('last_sequence')
    .executeTakeFirstOrThrow();
  return Number(row.last_sequence);
}

/** Stamps the logical tree's updated_at. */
export async function touchTree(
  tx: TreeDb,
  tenant: string,
  name: string,
  now: number,
): Promise<void> {
  await tx.db
    .updateTable('trees')
    .set({ updated_at: now })
    .where('tenant', '=', tenant)
    .where('name', '=', name)
    .execute();
}
