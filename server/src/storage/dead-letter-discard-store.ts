import { selectedLetters, type DeadLetterSelection } from './dead-letter-pending.js';
import { withTransaction, type TreeDb } from './tree-db.js';

/**
 * SQL of dead-letter discard: a discarded letter is marked (who, when, why), no longer pending,
 * and deleted by the audit sweep once it is older than the audit retention.
 */

type Tree = { tenant: string; treeName: string };
/** A discard or count takes pending letters only, whatever the listing flags say. */
type PendingSelection = Omit<DeadLetterSelection, 'includeReplayed' | 'includeDiscarded'>;

/** How many pending letters of a tree the selection takes. */
export async function countPendingLetters(
  handle: TreeDb,
  tree: Tree,
  selection: PendingSelection,
): Promise<number> {
  const row = await handle.db
    .selectFrom('schema_dead_letters')
    .select((eb) => eb.fn.countAll().as('n'))
    .where(selectedLetters(tree, pendingOnly(selection)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What a discard did: discarded `count` letters, or nothing because the set is now `count`. */
export type DiscardOutcome =
  { status: 'discarded'; count: number } | { status: 'changed'; count: number };

class CountChanged extends Error {
  constructor(readonly count: number) {
    super('pending set changed');
  }
}

/**
 * Marks the pending letters the selection takes as discarded, in one statement, only when they
 * are exactly `expectedCount`: otherwise the transaction rolls back and nothing changes. One
 * UPDATE both counts and claims (no read-then-write window): a letter replayed or discarded by
 * another call meanwhile is not pending for it, so two discards never mark one letter twice.
 */
export async function discardLetters(
  handle: TreeDb,
  discard: Tree & {
    selection: PendingSelection;
    expectedCount: number;
    discardedBy: string;
    note: string | null;
    now: number;
  },
): Promise<DiscardOutcome> {
  try {
    return await withTransaction(handle, async (tx): Promise<DiscardOutcome> => {
      const result = await tx.db
        .updateTable('schema_dead_letters')
        .set({
          discarded_at: discard.now,
          discarded_by: discard.discardedBy,
          discard_note: discard.note,
        })
        .where(selectedLetters(discard, pendingOnly(discard.selection)))
        .executeTakeFirst();
      const count = Number(result.numUpdatedRows);
      if (count !== discard.expectedCount) throw new CountChanged(count);
      return { status: 'discarded', count };
    });
  } catch (error) {
    if (error instanceof CountChanged) return { status: 'changed', count: error.count };
    throw error;
  }
}

/** Deletes letters discarded before `before` (the audit retention's cut-off); returns how many. */
export async function purgeDiscardedLetters(handle: TreeDb, before: number): Promise<number> {
  const result = await handle.db
    .deleteFrom('schema_dead_letters')
    .where('discarded_at', 'is not', null)
    .where('discarded_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

function pendingOnly(selection: PendingSelection): DeadLetterSelection {
  return { ...selection, includeReplayed: false, includeDiscarded: false };
}
