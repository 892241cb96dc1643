import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Database } from '../database-schema.js';
import { startsWith } from '../data/tree-db.js';

/**
 * The one definition of a pending dead letter, shared by every query that lists, counts, replays
 * or discards letters (StreamDeadLetters, CountDeadLetters, ListTrees' dead_letter_count,
 * ListDeadLetters, replay, discard): not written by a replay and not discarded. Resolved letters
 * stay in the table for audit; a count that used its own predicate would disagree with the rest.
 */

type LetterBuilder = ExpressionBuilder<Database, 'schema_dead_letters'>;

/** Pending: not written by a replay (never replayed, or refused again) and not discarded. */
export function pendingLetter(eb: LetterBuilder): Expression<SqlBool> {
  return eb.and([notWritten(eb), notDiscarded(eb)]);
}

function notWritten(eb: LetterBuilder): Expression<SqlBool> {
  return eb.or([
    eb('schema_dead_letters.replay_outcome', 'is', null),
    eb('schema_dead_letters.replay_outcome', '!=', 'WRITTEN'),
  ]);
}

function notDiscarded(eb: LetterBuilder): Expression<SqlBool> {
  return eb('schema_dead_letters.discarded_at', 'is', null);
}

/** Which letters of a tree a listing, a count, a bulk replay or a discard takes. */
export interface DeadLetterSelection {
  keyPrefix?: string | undefined;
  reasons?: readonly string[] | undefined;
  ids?: readonly number[] | undefined;
  /** Only letters dead-lettered strictly before this time (epoch ms). */
  before?: number | undefined;
  /** Also letters already written by a replay (listings only). */
  includeReplayed?: boolean | undefined;
  /** Also discarded letters (listings only). */
  includeDiscarded?: boolean | undefined;
}

/** The selection's filter on one tree's letters (pending ones unless it asks for more). */
export function selectedLetters(
  tree: { tenant: string; treeName: string },
  selection: DeadLetterSelection,
): (eb: LetterBuilder) => Expression<SqlBool> {
  const { keyPrefix, reasons = [], ids = [], before } = selection;
  return (eb) => {
    const terms: Expression<SqlBool>[] = [
      eb('schema_dead_letters.tenant', '=', tree.tenant),
      eb('schema_dead_letters.tree_name', '=', tree.treeName),
    ];
    if (!selection.includeReplayed) terms.push(notWritten(eb));
    if (!selection.includeDiscarded) terms.push(notDiscarded(eb));
    if (keyPrefix) terms.push(startsWith('schema_dead_letters.key', keyPrefix));
    if (reasons.length > 0) terms.push(eb('schema_dead_letters.reason', 'in', [...reasons]));
    if (ids.length > 0) terms.push(eb('schema_dead_letters.id', 'in', [...ids]));
    if (before !== undefined) terms.push(eb('schema_dead_letters.dead_lettered_at', '<', before));
    return eb.and(terms);
  };
}
