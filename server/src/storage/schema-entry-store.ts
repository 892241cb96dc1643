import type { Expression, ExpressionBuilder } from 'kysely';
import type { Database } from './schema.js';
import { selectTreeForUpdate } from './tree-store.js';
import { withTransaction, type TreeDb } from './tree-db.js';

/**
 * SQL of the schema engine's dead letters and of its write-backs into trees: a page of migrated
 * or remediated values written in one transaction, each only if its entry did not change since
 * it was read (compared by sequence).
 */

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

/** A stored dead letter with its arrival-order id. */
export interface DeadLetterRow {
  id: number;
  key: string;
  valueJson: string;
  reason: string;
  errors: string[];
  sourceOperationId: string | null;
  schemaVersion: number;
  deadLetteredAt: number;
}

/** Stores one dead letter. */
export async function insertDeadLetter(handle: TreeDb, letter: DeadLetterInsert): Promise<void> {
  await handle.db
    .insertInto('schema_dead_letters')
    .values({
      tenant: letter.tenant,
      tree_name: letter.treeName,
      key: letter.key,
      value_json: letter.valueJson,
      reason: letter.reason,
      errors_json: JSON.stringify(letter.errors),
      source_operation_id: letter.sourceOperationId,
      schema_version: letter.schemaVersion,
      dead_lettered_at: letter.deadLetteredAt,
    })
    .execute();
}

/** One page of a tree's dead letters, oldest first, after the id `afterId`. */
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
    .$if(page.afterId !== undefined, (qb) => qb.where('id', '>', page.afterId ?? 0))
    .orderBy('id')
    .limit(page.limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    key: row.key,
    valueJson: row.value_json,
    reason: row.reason,
    errors: parseErrors(row.errors_json),
    sourceOperationId: row.source_operation_id,
    schemaVersion: Number(row.schema_version),
    deadLetteredAt: Number(row.dead_lettered_at),
  }));
}

/** How many dead letters a tree holds. */
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
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function parseErrors(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
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
 * Applies a page of changes to a physical tree in one transaction under the tree's lock, in a
 * few statements whatever the page size. Each change happens only while the entry still has the
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
    const base = tx.db
      .updateTable('entries')
      .where('physical_tree_id', '=', physicalTreeId)
      .where('tombstone', '=', 0);
    const unchanged = (batch: typeof numbered) =>
      base.where((eb) =>
        eb.or(
          batch.map(({ change }) =>
            eb.and([eb('key', '=', change.key), eb('sequence', '=', change.expectedSequence)]),
          ),
        ),
      );
    if (writes.length > 0) {
      const rows = await unchanged(writes)
        .set((eb) => ({
          value_json: caseByKey(
            writes,
            (e) => (e.change.kind === 'write' ? e.change.valueJson : null),
            eb.ref('value_json'),
            eb,
          ),
          schema_version: caseByKey(
            writes,
            (e) => (e.change.kind === 'write' ? e.change.schemaVersion : 0),
            eb.ref('schema_version'),
            eb,
          ),
          sequence: caseByKey(writes, (e) => e.sequence, eb.ref('sequence'), eb),
          updated_at: now,
        }))
        .returning('key')
        .execute();
      for (const row of rows) applied.add(row.key);
    }
    if (letters.length > 0) {
      const rows = await unchanged(letters)
        .set((eb) => ({
          value_json: null,
          tombstone: 1,
          sequence: caseByKey(letters, (e) => e.sequence, eb.ref('sequence'), eb),
          updated_at: now,
        }))
        .returning('key')
        .execute();
      const moved = new Set(rows.map((row) => row.key));
      for (const key of moved) applied.add(key);
      const inserts = letters.flatMap(({ change }) =>
        change.kind === 'dead_letter' && moved.has(change.key) ? [change.letter] : [],
      );
      for (const letter of inserts) await insertDeadLetter(tx, letter);
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

/** CASE key WHEN … THEN pick(item) … ELSE fallback END: one statement sets many rows. */
function caseByKey<T extends string | number | null>(
  items: readonly Numbered[],
  pick: (item: Numbered) => T,
  fallback: Expression<T>,
  eb: ExpressionBuilder<Database, 'entries'>,
): Expression<T> {
  const [head, ...rest] = items;
  if (!head) return fallback;
  let expr = eb.case().when('key', '=', head.change.key).then(pick(head));
  for (const item of rest) expr = expr.when('key', '=', item.change.key).then(pick(item));
  return expr.else(fallback).end() as Expression<T>;
}
