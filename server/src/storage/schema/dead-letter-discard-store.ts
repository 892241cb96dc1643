import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../database.js';
import { selectedLetters, type DeadLetterSelection } from './dead-letter-pending.js';
import { withTransaction, type TreeDb } from '../data/tree-db.js';

/**
 * SQL of dead-letter discard: a discarded letter is marked (who, when, why), no longer pending,
 * and deleted by the audit sweep once it is older than the audit retention.
 */

type Tree = { tenant: string; treeName: string };
/** A discard or count takes pending letters only, whatever the listing flags say. */
type PendingSelection = Omit<DeadLetterSelection, 'includeReplayed' | 'includeDiscarded'>;

/**
 * A selection's pending letters as a count confirms them: how many, and a fingerprint that names
 * exactly which. A letter leaves a selection (replayed, discarded) but never comes back, and
 * reason, key and time never change, so the only way in is to arrive. The fingerprint is
 * count, highest id and a digest of the ids: on SQLite ids are AUTOINCREMENT under one writer, so
 * a letter that arrives after the count has an id above every id then, and count + highest id
 * already name the set (the digest is the lowest id and the ids' sum). On PostgreSQL an insert
 * that commits late can carry an id below ones already visible, so the digest is an md5 of the
 * sorted ids. Either is one aggregate over the (tenant, tree_name, id) index.
 */
export interface PendingLetterSet {
  count: number;
  fingerprint: string;
}

interface FingerprintRow {
  n: number | string | bigint;
  highest: number | string | bigint | null;
  digest: number | string | null;
}

/** The aggregate columns of a fingerprint over the id column `idColumn`. */
function fingerprintColumns(
  dialect: Dialect,
  idColumn: string,
): [RawBuilder<unknown>, RawBuilder<unknown>, RawBuilder<unknown>] {
  const id = sql.ref(idColumn);
  const digest =
    dialect === 'postgres'
      ? sql`md5(coalesce(string_agg(${id}::text, ',' order by ${id}), ''))`
      : sql`coalesce(min(${id}), 0) || '.' || coalesce(sum(${id}), 0)`;
  return [sql`count(*)`, sql`coalesce(max(${id}), 0)`, digest];
}

function pendingSetOf(row: FingerprintRow | undefined): PendingLetterSet {
  if (!row) return { count: 0, fingerprint: '0' };
  const count = Number(row.n);
  return { count, fingerprint: `${count}.${String(row.highest)}.${String(row.digest)}` };
}

/** The pending letters of a tree the selection takes: their count and fingerprint. */
export async function countPendingLetters(
  handle: TreeDb,
  tree: Tree,
  selection: PendingSelection,
): Promise<PendingLetterSet> {
  const [n, highest, digest] = fingerprintColumns(handle.dialect, 'schema_dead_letters.id');
  const row = await handle.db
    .selectFrom('schema_dead_letters')
    .select([n.as('n'), highest.as('highest'), digest.as('digest')])
    .where(selectedLetters(tree, pendingOnly(selection)))
    .executeTakeFirst();
  return pendingSetOf(row as FingerprintRow | undefined);
}

/** What a discard did: discarded the confirmed letters, or nothing because the set moved. */
export type DiscardOutcome =
  { status: 'discarded'; count: number } | { status: 'changed'; count: number; sameCount: boolean };

class SetChanged extends Error {
  constructor(readonly found: PendingLetterSet) {
    super('pending set changed');
  }
}

/**
 * Marks the pending letters the selection takes as discarded, only when they are exactly the set
 * confirmed (its count and fingerprint): otherwise the transaction rolls back and nothing
 * changes. The claimed set is fingerprinted in the same statement or transaction as the UPDATE,
 * so no letter slips in between: on PostgreSQL one statement claims and fingerprints (an UPDATE
 * in a WITH), on SQLite, whose one connection runs one transaction at a time, the fingerprint is
 * read first. A letter replayed or discarded by another call meanwhile is not pending for this
 * one, so two discards never mark one letter twice.
 */
export async function discardLetters(
  handle: TreeDb,
  discard: Tree & {
    selection: PendingSelection;
    expected: PendingLetterSet;
    discardedBy: string;
    note: string | null;
    now: number;
  },
): Promise<DiscardOutcome> {
  const { expected } = discard;
  try {
    return await withTransaction(handle, async (tx): Promise<DiscardOutcome> => {
      const claimed = await claimLetters(tx, discard);
      if (claimed.count !== expected.count || claimed.fingerprint !== expected.fingerprint) {
        throw new SetChanged(claimed);
      }
      return { status: 'discarded', count: claimed.count };
    });
  } catch (error) {
    if (error instanceof SetChanged) {
      const { count } = error.found;
      return { status: 'changed', count, sameCount: count === expected.count };
    }
    throw error;
  }
}

/** Marks the selection's pending letters discarded; the set it marked, fingerprinted. */
async function claimLetters(
  tx: TreeDb,
  discard: Tree & {
    selection: PendingSelection;
    discardedBy: string;
    note: string | null;
    now: number;
  },
): Promise<PendingLetterSet> {
  const mark = {
    discarded_at: discard.now,
    discarded_by: discard.discardedBy,
    discard_note: discard.note,
  };
  const taken = selectedLetters(discard, pendingOnly(discard.selection));
  if (tx.dialect === 'postgres') {
    const [n, highest, digest] = fingerprintColumns('postgres', 'claimed.id');
    const row = await tx.db
      .with('claimed', (db) =>
        db.updateTable('schema_dead_letters').set(mark).where(taken).returning('id'),
      )
      .selectFrom('claimed')
      .select([n.as('n'), highest.as('highest'), digest.as('digest')])
      .executeTakeFirst();
    return pendingSetOf(row as FingerprintRow | undefined);
  }
  const before = await countPendingLetters(tx, discard, discard.selection);
  const result = await tx.db
    .updateTable('schema_dead_letters')
    .set(mark)
    .where(taken)
    .executeTakeFirst();
  // One connection, one transaction at a time: the UPDATE takes exactly what was fingerprinted.
  if (Number(result.numUpdatedRows) !== before.count) {
    throw new Error('the discarded letters differ from the fingerprinted ones');
  }
  return before;
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
