import { sql } from 'kysely';
import { selectTreeForUpdate } from '../data/tree-store.js';
import { pendingLetter } from './dead-letter-pending.js';
import { toDeadLetterRow, type DeadLetterRow } from './dead-letter-row.js';
import { sqliteStatement, withTransaction, type TreeDb } from '../data/tree-db.js';

/**
 * SQL of the schema engine's dead letters and of its write-backs into trees: a page of migrated
 * or remediated values written in one transaction, each only if its entry did not change since
 * it was read (compared by sequence).
 */

export type { DeadLetterRow } from './dead-letter-row.js';

/** A dead letter to store. */
export interface DeadLetterInsert {
  tenant: string;
  treeName: string;
  key: string;
  valueJson: string;
  reason: string;
  errors: readonly string[];
  sourceOperationId: string | null;
  schemaVersion: number;
  deadLetteredAt: number;
}

/** Stores one dead letter. */
export async function insertDeadLetter(handle: TreeDb, letter: DeadLetterInsert): Promise<void> {
  await insertDeadLetters(handle, [letter]);
}

/** Stores dead letters in one statement (one transaction); nothing for an empty list. */
export async function insertDeadLetters(
  handle: TreeDb,
  letters: readonly DeadLetterInsert[],
): Promise<void> {
  if (letters.length === 0) return;
  await handle.db
    .insertInto('schema_dead_letters')
    .values(
      letters.map((letter) => ({
        tenant: letter.tenant,
        tree_name: letter.treeName,
        key: letter.key,
        value_json: letter.valueJson,
        reason: letter.reason,
        errors_json: JSON.stringify(letter.errors),
        source_operation_id: letter.sourceOperationId,
        schema_version: letter.schemaVersion,
        dead_lettered_at: letter.deadLetteredAt,
      })),
    )
    .execute();
}

/** One page of a tree's pending dead letters (dead-letter-pending.ts), oldest first, after `afterId`. */
export async function listDeadLetters(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  page: { afterId?: number; limit: number },
): Promise<DeadLetterRow[]> {
  const rows = await handle.db
    .selectFrom('schema_dead_letters')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    // A letter a replay wrote or a discard resolved is kept for audit, not listed.
    .where(pendingLetter)
    .$if(page.afterId !== undefined, (qb) => qb.where('id', '>', page.afterId ?? 0))
    .orderBy('id')
    .limit(page.limit)
    .execute();
  return rows.map(toDeadLetterRow);
}

/** How many pending dead letters a tree holds (resolved ones are kept for audit, not counted). */
export async function countDeadLetters(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<number> {
  const row = await handle.db
    .selectFrom('schema_dead_letters')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .where(pendingLetter)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One change to one entry read at `expectedSequence`: a new value, or out to dead letters. */
export type EntryChange =
  | {
      kind: 'write';
      key: string;
      expectedSequence: number;
      valueJson: string;
      schemaVersion: number;
    }
  | { kind: 'dead_letter'; key: string; expectedSequence: number; letter: DeadLetterInsert };

/** What a page write did. */
export type ChangeOutcome =
  | { status: 'applied'; applied: Set<string>; conflicts: string[] }
  | { status: 'locked'; lockedBy: string }
  | { status: 'moved' };

/**
 * Applies a page of changes to a physical tree in one transaction under the tree's lock, each
 * change found through the primary key (PostgreSQL: one statement per kind of change, its rows
 * from arrays; SQLite: one prepared statement run per change, in-process). Each change happens only while the entry still has the
 * sequence it was read with, and gets a new sequence (so incremental backups see it); a
 * dead-lettered entry becomes a tombstone. 'moved' means the logical tree no longer points at
 * `physicalTreeId` (a restore swapped it).
 */
export async function applyEntryChanges(
  handle: TreeDb,
  target: { tenant: string; treeName: string; physicalTreeId: string; now: number },
  changes: readonly EntryChange[],
): Promise<ChangeOutcome> {
  const { tenant, treeName, physicalTreeId, now } = target;
  return withTransaction(handle, async (tx): Promise<ChangeOutcome> => {
    const tree = await selectTreeForUpdate(tx, tenant, treeName);
    if (!tree || tree.physicalTreeId !== physicalTreeId) return { status: 'moved' };
    if (tree.writeLockedBy !== null) return { status: 'locked', lockedBy: tree.writeLockedBy };
    // Reserve one sequence per change up front; a change that loses its race leaves a gap,
    // which is fine: sequences only need to rise.
    const reserved = await tx.db
      .updateTable('physical_trees')
      .set((eb) => ({ last_sequence: eb('last_sequence', '+', changes.length) }))
      .where('id', '=', physicalTreeId)
      .returning('last_sequence')
      .executeTakeFirstOrThrow();
    const first = Number(reserved.last_sequence) - changes.length + 1;
    const numbered = changes.map((change, index) => ({ change, sequence: first + index }));
    const writes = numbered.filter(({ change }) => change.kind === 'write');
    const letters = numbered.filter(({ change }) => change.kind === 'dead_letter');
    const applied = new Set<string>();
    const page = { physicalTreeId, now };
    for (const key of await writeValues(tx, page, writes)) applied.add(key);
    const moved = await tombstoneLetters(tx, page, letters);
    for (const key of moved) applied.add(key);
    for (const { change } of letters) {
      if (change.kind === 'dead_letter' && moved.has(change.key)) {
        await insertDeadLetter(tx, change.letter);
      }
    }
    if (applied.size > 0) {
      await tx.db
        .updateTable('trees')
        .set({ updated_at: now })
        .where('tenant', '=', tenant)
        .where('name', '=', treeName)
        .execute();
    }
    const conflicts = changes.map((c) => c.key).filter((key) => !applied.has(key));
    return { status: 'applied', applied, conflicts };
  });
}

type Numbered = { change: EntryChange; sequence: number };
type PageTarget = { physicalTreeId: string; now: number };

// Each change is matched by primary key (physical tree, key) plus the sequence it was read at,
// so the database finds every row through the index whatever the page size. (One statement
// with an OR of (key, sequence) pairs scanned the whole physical tree for every page, which made
// a migration quadratic in the tree's size, and SQLite refuses an OR chain over 1 000 deep.)
const SQLITE_WRITE = `update entries set value_json = ?, schema_version = ?, sequence = ?,
  updated_at = ? where physical_tree_id = ? and key = ? and sequence = ? and tombstone = 0`;
const SQLITE_TOMBSTONE = `update entries set value_json = null, tombstone = 1, sequence = ?,
  updated_at = ? where physical_tree_id = ? and key = ? and sequence = ? and tombstone = 0`;

/** Writes new values; returns the keys written (the others changed since they were read). */
async function writeValues(
  tx: TreeDb,
  { physicalTreeId, now }: PageTarget,
  writes: readonly Numbered[],
): Promise<string[]> {
  const rows = writes.flatMap(({ change, sequence }) =>
    change.kind === 'write' ? [{ ...change, sequence }] : [],
  );
  if (rows.length === 0) return [];
  if (tx.dialect === 'sqlite') {
    const update = sqliteStatement(tx, SQLITE_WRITE);
    return rows.flatMap((r) =>
      update.run(
        r.valueJson,
        r.schemaVersion,
        r.sequence,
        now,
        physicalTreeId,
        r.key,
        r.expectedSequence,
      ).changes > 0
        ? [r.key]
        : [],
    );
  }
  const { rows: written } = await sql<{ key: string }>`
    update entries as e
    set value_json = c.v, schema_version = c.sv, sequence = c.s, updated_at = ${now}
    from unnest(
      ${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.expectedSequence)}::bigint[],
      ${rows.map((r) => r.valueJson)}::text[], ${rows.map((r) => r.schemaVersion)}::integer[],
      ${rows.map((r) => r.sequence)}::bigint[]
    ) as c(k, es, v, sv, s)
    where e.physical_tree_id = ${physicalTreeId} and e.key = c.k collate "C"
      and e.sequence = c.es and e.tombstone = 0
    returning e.key
  `.execute(tx.db);
  return written.map((row) => row.key);
}

/** Turns dead-lettered entries into tombstones; returns the keys that moved. */
async function tombstoneLetters(
  tx: TreeDb,
  { physicalTreeId, now }: PageTarget,
  letters: readonly Numbered[],
): Promise<Set<string>> {
  if (letters.length === 0) return new Set();
  if (tx.dialect === 'sqlite') {
    const update = sqliteStatement(tx, SQLITE_TOMBSTONE);
    return new Set(
      letters.flatMap(({ change, sequence }) =>
        update.run(sequence, now, physicalTreeId, change.key, change.expectedSequence).changes > 0
          ? [change.key]
          : [],
      ),
    );
  }
  const { rows } = await sql<{ key: string }>`
    update entries as e
    set value_json = null, tombstone = 1, sequence = c.s, updated_at = ${now}
    from unnest(
      ${letters.map(({ change }) => change.key)}::text[],
      ${letters.map(({ change }) => change.expectedSequence)}::bigint[],
      ${letters.map(({ sequence }) => sequence)}::bigint[]
    ) as c(k, es, s)
    where e.physical_tree_id = ${physicalTreeId} and e.key = c.k collate "C"
      and e.sequence = c.es and e.tombstone = 0
    returning e.key
  `.execute(tx.db);
  return new Set(rows.map((row) => row.key));
}
