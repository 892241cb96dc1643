import { pendingLetter, selectedLetters, type DeadLetterSelection } from './dead-letter-pending.js';
import { putEntry } from '../data/tree-store.js';
import { withTransaction, type TreeDb } from '../data/tree-db.js';
import { toDeadLetterRecordRow, type DeadLetterRecordRow } from './dead-letter-row.js';

export type { DeadLetterSelection } from './dead-letter-pending.js';
export type { DeadLetterRecordRow, ReplayOutcome } from './dead-letter-row.js';

/**
 * SQL of dead-letter replay (issue 16): dead letters with their ids and replay history, and the
 * replay itself — the entry written and the letter marked in one transaction.
 */

/** One page of a tree's letters in arrival order, after the id `afterId`. */
export async function listDeadLetterRecords(
  handle: TreeDb,
  tree: { tenant: string; treeName: string },
  selection: DeadLetterSelection,
  page: { afterId?: number | undefined; limit: number },
): Promise<DeadLetterRecordRow[]> {
  const rows = await handle.db
    .selectFrom('schema_dead_letters')
    .selectAll()
    .where(selectedLetters(tree, selection))
    .$if(page.afterId !== undefined, (qb) => qb.where('id', '>', page.afterId ?? 0))
    .orderBy('id')
    .limit(page.limit)
    .execute();
  return rows.map(toDeadLetterRecordRow);
}

/** One letter of a tree by id (pending, replayed or discarded), or undefined. */
export async function getDeadLetterRecord(
  handle: TreeDb,
  tree: { tenant: string; treeName: string },
  id: number,
): Promise<DeadLetterRecordRow | undefined> {
  const [row] = await listDeadLetterRecords(
    handle,
    tree,
    { ids: [id], includeReplayed: true, includeDiscarded: true },
    { limit: 1 },
  );
  return row;
}

/** What a replay write did. */
export type ReplayWriteOutcome =
  | { status: 'written'; sequence: number }
  | { status: 'not_pending' }
  | { status: 'locked'; lockedBy: string };

class TreeLocked extends Error {
  constructor(readonly lockedBy: string) {
    super('tree locked');
  }
}

/**
 * Writes a replayed value and marks its letter WRITTEN in one transaction. The letter is claimed
 * first (only while pending), so two replays of one letter write it once, and a discarded one
 * is not written; a write-locked tree rolls the claim back.
 */
export async function writeReplayedLetter(
  handle: TreeDb,
  replay: {
    tenant: string;
    treeName: string;
    id: number;
    key: string;
    valueJson: string;
    /** Set when the replayed value differs from the letter's. */
    editedValueJson: string | null;
    schemaVersion: number;
    replayedBy: string;
    now: number;
  },
): Promise<ReplayWriteOutcome> {
  try {
    return await withTransaction(handle, async (tx): Promise<ReplayWriteOutcome> => {
      const claimed = await tx.db
        .updateTable('schema_dead_letters')
        .set({
          replay_outcome: 'WRITTEN',
          replayed_at: replay.now,
          replayed_by: replay.replayedBy,
          replayed_value_json: replay.editedValueJson,
          replay_errors_json: null,
        })
        .where('id', '=', replay.id)
        .where('tenant', '=', replay.tenant)
        .where('tree_name', '=', replay.treeName)
        .where(pendingLetter)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return { status: 'not_pending' };
      const outcome = await putEntry(tx, {
        tenant: replay.tenant,
        treeName: replay.treeName,
        key: replay.key,
        valueJson: replay.valueJson,
        schemaVersion: replay.schemaVersion,
        now: replay.now,
      });
      if (outcome.status === 'locked') throw new TreeLocked(outcome.lockedBy);
      await tx.db
        .updateTable('schema_dead_letters')
        .set({ replay_sequence: outcome.sequence })
        .where('id', '=', replay.id)
        .execute();
      return { status: 'written', sequence: outcome.sequence };
    });
  } catch (error) {
    if (error instanceof TreeLocked) return { status: 'locked', lockedBy: error.lockedBy };
    throw error;
  }
}

/** Records a refused replay on a pending letter: who, when, the value tried and why. */
export async function markReplayRefused(
  handle: TreeDb,
  refusal: {
    tenant: string;
    treeName: string;
    id: number;
    editedValueJson: string | null;
    errors: readonly string[];
    replayedBy: string;
    now: number;
  },
): Promise<boolean> {
  const result = await handle.db
    .updateTable('schema_dead_letters')
    .set({
      replay_outcome: 'REFUSED',
      replayed_at: refusal.now,
      replayed_by: refusal.replayedBy,
      replayed_value_json: refusal.editedValueJson,
      replay_errors_json: JSON.stringify(refusal.errors),
    })
    .where('id', '=', refusal.id)
    .where('tenant', '=', refusal.tenant)
    .where('tree_name', '=', refusal.treeName)
    .where(pendingLetter)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
