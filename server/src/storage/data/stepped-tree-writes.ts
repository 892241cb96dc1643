import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import { withoutOwnFlush } from './physical-tree-store.js';
import { prefixEnd, sqliteStatement, type TreeDb } from './tree-db.js';

/**
 * Writes over a whole physical tree that nobody can see (a tree being dropped, a restored tree
 * not yet installed), cut into bounded steps on SQLite (issue 37 bullet 1). better-sqlite3 runs
 * a statement synchronously on the event loop: dropping 1 M entries in one DELETE (its count
 * triggers firing per row) or copying them in one INSERT … SELECT held every other call for
 * seconds. Here each step is one short transaction of at most `STEPPED_WRITE_MAX_ROWS` rows,
 * shrunk when a step runs longer than `STEPPED_WRITE_MS`, and the loop is free between steps.
 *
 * PostgreSQL runs the statement on its own connection and the event loop only waits for the
 * answer, so there one statement does the whole tree (no step boundaries to pay for).
 *
 * No step needs to be durable on its own (withoutOwnFlush): the rows are unreachable, and a crash
 * half-way leaves a tree no logical tree points at, which the start and scrub sweeps drop
 * (restore-leftovers-store.ts, restore-drills.ts).
 */

/** Rows a step writes at most (and at first). */
export const STEPPED_WRITE_MAX_ROWS = 1_000;

/** Rows a step writes at least, however slow the machine. */
const STEPPED_WRITE_MIN_ROWS = 50;

/** A step that ran longer than this halves the next one; one under half of it grows it. */
export const STEPPED_WRITE_MS = 4;

/** What a stepped write reports after each step (tests read it; nothing in production needs it). */
export interface StepReport {
  rows: number;
  ms: number;
}

export interface SteppedWriteOptions {
  signal?: AbortSignal | undefined;
  onStep?: ((step: StepReport) => void) | undefined;
}

/** The next step's size after one of `rows` rows that took `ms`. */
function nextStepRows(rows: number, ms: number): number {
  if (ms > STEPPED_WRITE_MS) return Math.max(STEPPED_WRITE_MIN_ROWS, Math.floor(rows / 2));
  if (ms < STEPPED_WRITE_MS / 2) return Math.min(STEPPED_WRITE_MAX_ROWS, rows * 2);
  return rows;
}

/** One deleting step: any `limit` rows of the tree, found through an index on its id. */
export const SQLITE_DELETE_STEP =
  'delete from entries where rowid in ' +
  '(select rowid from entries where physical_tree_id = ? limit ?)';

/**
 * Deletes every entry (tombstones too) of a physical tree, in steps on SQLite; returns how many.
 * The caller makes sure nothing can reach the tree (dropPhysicalTree checks no logical tree
 * points at it, and nothing swaps a tree it did not fill itself).
 */
export async function deleteTreeEntriesInSteps(
  handle: TreeDb,
  physicalTreeId: string,
  options: SteppedWriteOptions = {},
): Promise<number> {
  if (handle.dialect === 'postgres' || handle.db.isTransaction) {
    // Inside a caller's transaction a step boundary would commit nothing: one statement.
    const result = await handle.db
      .deleteFrom('entries')
      .where('physical_tree_id', '=', physicalTreeId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
  let deleted = 0;
  for (let rows = STEPPED_WRITE_MAX_ROWS; ; ) {
    options.signal?.throwIfAborted();
    const started = performance.now();
    let changes = 0;
    await withoutOwnFlush(handle, async (tx) => {
      changes = sqliteStatement(tx, SQLITE_DELETE_STEP).run(physicalTreeId, rows).changes;
    });
    const ms = performance.now() - started;
    deleted += changes;
    options.onStep?.({ rows: changes, ms });
    if (changes < rows) return deleted;
    rows = nextStepRows(rows, ms);
    await nextTurn();
  }
}

const ENTRY_COLUMNS = 'key, value_json, tombstone, sequence, schema_version, updated_at';

/** The key range condition of a copying step: after (or from) the cursor, up to a bound. */
function rangeSql(first: boolean, upTo: 'end' | 'last' | 'none'): string {
  const bound = upTo === 'end' ? ' and key < ?' : upTo === 'last' ? ' and key <= ?' : '';
  return `physical_tree_id = ? and key ${first ? '>=' : '>'} ?${bound}`;
}

/** The key that ends a step of `limit` rows (its last), or none when fewer rows are left. */
export function stepEndSql(first: boolean, bounded: boolean): string {
  return (
    `select key from entries where ${rangeSql(first, bounded ? 'end' : 'none')} ` +
    'order by key limit 1 offset ?'
  );
}

/** One copying step: the rows from the cursor up to the step's last key (or the range's end). */
export function copyStepSql(first: boolean, upTo: 'end' | 'last' | 'none'): string {
  return (
    `insert into entries (physical_tree_id, ${ENTRY_COLUMNS}) ` +
    `select ?, ${ENTRY_COLUMNS} from entries where ${rangeSql(first, upTo)}`
  );
}

/**
 * Copies the rows of key range [from, end) of one physical tree into another (which holds no
 * key in that range), in steps on SQLite, in key order; returns how many. A step first finds
 * its last key (an index walk of at most its rows), then copies up to it.
 */
async function copyKeyRangeInSteps(
  handle: TreeDb,
  source: string,
  target: string,
  range: { from: string; end: string | undefined },
  options: SteppedWriteOptions,
): Promise<number> {
  const bounded = range.end !== undefined;
  const endParams = bounded ? [range.end] : [];
  let copied = 0;
  let cursor = range.from;
  let first = true;
  for (let rows = STEPPED_WRITE_MAX_ROWS; ; ) {
    options.signal?.throwIfAborted();
    const started = performance.now();
    let changes = 0;
    let last: string | undefined;
    await withoutOwnFlush(handle, async (tx) => {
      const stepEnd = sqliteStatement(tx, stepEndSql(first, bounded)).pluck(true);
      last = stepEnd.get(source, cursor, ...endParams, rows - 1) as string | undefined;
      stepEnd.pluck(false);
      const copy =
        last === undefined
          ? sqliteStatement(tx, copyStepSql(first, bounded ? 'end' : 'none')).run(
              target,
              source,
              cursor,
              ...endParams,
            )
          : sqliteStatement(tx, copyStepSql(first, 'last')).run(target, source, cursor, last);
      changes = copy.changes;
    });
    const ms = performance.now() - started;
    copied += changes;
    options.onStep?.({ rows: changes, ms });
    if (last === undefined) return copied;
    cursor = last;
    first = false;
    rows = nextStepRows(rows, ms);
    await nextTurn();
  }
}

/**
 * Copies every entry of `source` whose key does not start with `prefix` into `target`, a
 * restored tree not yet installed that holds keys under the prefix only; returns how many.
 * SQLite: the two key ranges around the prefix, each walked in steps (never the prefix itself,
 * which may hold most of the tree). PostgreSQL: one statement.
 */
export async function copyOutsidePrefixInSteps(
  handle: TreeDb,
  source: string,
  target: string,
  prefix: string,
  options: SteppedWriteOptions = {},
): Promise<number> {
  const end = prefixEnd(prefix);
  if (handle.dialect === 'postgres' || end === undefined) {
    const result = await sql`
      insert into entries (physical_tree_id, ${sql.raw(ENTRY_COLUMNS)})
      select ${target}, ${sql.raw(ENTRY_COLUMNS)} from entries
      where physical_tree_id = ${source} and (key < ${prefix} or key >= ${end ?? prefix})
        and substr(key, 1, ${[...prefix].length}) <> ${prefix}
    `.execute(handle.db);
    return Number(result.numAffectedRows ?? 0);
  }
  let copied = await copyBelow(handle, source, target, prefix, options);
  copied += await copyKeyRangeInSteps(handle, source, target, { from: end, end: undefined }, options);
  return copied;
}

/** The range before the prefix: from the empty key (every key is at least '') up to it. */
function copyBelow(
  handle: TreeDb,
  source: string,
  target: string,
  prefix: string,
  options: SteppedWriteOptions,
): Promise<number> {
  return copyKeyRangeInSteps(handle, source, target, { from: '', end: prefix }, options);
}
