import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Statement as SqliteStatement } from 'better-sqlite3';
import { prefixEnd, sqliteStatement, type TreeDb } from './tree-db.js';
import type { EntryLineRange } from './entry-lines.js';

/**
 * SQLite reads of a tree's artifact lines in bounded synchronous steps (issue 37 bullet 1).
 * better-sqlite3 runs each step on the event loop, so one statement that sorts a whole tree
 * (the sequence index, then a temp B-tree by key: 1.8 s before the first row at 1 M entries)
 * kept every other call waiting. Here each step walks at most `SQLITE_STEP_ROWS` rows of the
 * primary key (physical tree, key) in key order — no sort — and stops early once it has run for
 * `SQLITE_STEP_MS` (a busy machine or a cold cache makes rows slower); the loop is free between
 * steps.
 * The snapshot's conditions (sequence bounds, tombstones) are tested per row in the select
 * list, not in WHERE, so they can never lead SQLite to another index.
 */

/** Rows a step walks at most: a millisecond or two of SQLite's work on an idle machine. */
export const SQLITE_STEP_ROWS = 1_000;

/** A step stops once it has run this long (the clock is read every 64 rows). */
export const SQLITE_STEP_MS = 4;

/**
 * An incremental whose changes are at most this many reads them through the sequence index and
 * sorts them (a small bounded sort) instead of walking every key of the tree.
 */
export const SMALL_CHANGE_SET = 2_000;

/** The per-row test of a range, as SQL with its parameters, or undefined when every row is in. */
function rowTest(range: EntryLineRange): { text: string; params: (string | number)[] } | undefined {
  const conditions: string[] = [];
  const params: (string | number)[] = [];
  if (range.toSequence !== undefined) {
    conditions.push('sequence <= ?');
    params.push(range.toSequence);
  }
  if (range.fromSequence !== undefined) {
    conditions.push('sequence > ?');
    params.push(range.fromSequence);
  }
  if (range.liveOnly) conditions.push('tombstone = 0');
  return conditions.length > 0 ? { text: conditions.join(' and '), params } : undefined;
}

/** The key range a walk reads: from the prefix, up to the first key after it when there is one. */
function keyRange(range: EntryLineRange): { from: string; end: string | undefined } {
  const prefix = range.keyPrefix ?? '';
  return { from: prefix, end: prefix === '' ? undefined : prefixEnd(prefix) };
}

/**
 * The statement of one walking step: every row of the key range after the cursor, in key
 * order, with `selected` (the line, or 1 for a count) when the row passes the range's test and
 * NULL when not. `first`: the cursor is the range's start (>=), else the last key read (>).
 */
export function walkStepSql(range: EntryLineRange, selected: string, first: boolean): string {
  const test = rowTest(range);
  const value = test ? `case when ${test.text} then ${selected} end` : selected;
  const end = keyRange(range).end !== undefined ? ' and key < ?' : '';
  return (
    `select key, ${value} as selected from entries ` +
    `where physical_tree_id = ? and key ${first ? '>=' : '>'} ?${end} ` +
    `order by key limit ${SQLITE_STEP_ROWS}`
  );
}

/**
 * Walks the range's key range step by step; yields each step's selected values (NULLs left
 * out), and an empty array for a step that selected nothing.
 */
async function* walk(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
  selected: string,
): AsyncGenerator<unknown[]> {
  const params = rowTest(range)?.params ?? [];
  const { from, end } = keyRange(range);
  const prefix = range.keyPrefix ?? '';
  const [firstStep, nextStep] = [true, false].map((first) =>
    sqliteStatement(handle, walkStepSql(range, selected, first)),
  ) as [SqliteStatement, SqliteStatement];
  let cursor = from;
  for (let statement = firstStep; ; statement = nextStep) {
    const rows = statement
      .raw(true)
      .iterate(
        ...params,
        physicalTreeId,
        cursor,
        ...(end !== undefined ? [end] : []),
      ) as IterableIterator<[string, unknown]>;
    const values: unknown[] = [];
    let last: string | undefined;
    let read = 0;
    let cut = false;
    let pastPrefix = false;
    const stopAt = performance.now() + SQLITE_STEP_MS;
    try {
      for (const [key, value] of rows) {
        // Without an end key (a prefix ending in U+10FFFF) the walk stops at the first key
        // past the prefix.
        if (end === undefined && !key.startsWith(prefix)) {
          pastPrefix = true;
          break;
        }
        last = key;
        read++;
        if (value !== null) values.push(value);
        // The clock every 64 rows: reading it costs more than a row.
        if ((read & 63) === 0 && performance.now() >= stopAt) {
          cut = true;
          break;
        }
      }
    } finally {
      rows.return?.();
      statement.raw(false);
    }
    yield values;
    if (pastPrefix || last === undefined || !(cut || read === SQLITE_STEP_ROWS)) return;
    cursor = last;
    await nextTurn();
  }
}

/**
 * True when an incremental range changed few enough rows to read them through the sequence
 * index and sort them: the probe itself reads at most SMALL_CHANGE_SET + 1 index entries.
 */
function smallChangeSet(handle: TreeDb, physicalTreeId: string, range: EntryLineRange): boolean {
  if (range.fromSequence === undefined) return false;
  const upTo = range.toSequence !== undefined ? ' and sequence <= ?' : '';
  const probe = sqliteStatement(
    handle,
    `select count(*) from (select 1 from entries indexed by entries_by_sequence ` +
      `where physical_tree_id = ? and sequence > ?${upTo} limit ${SMALL_CHANGE_SET + 1})`,
  );
  const changed = probe
    .pluck(true)
    .get(
      physicalTreeId,
      range.fromSequence,
      ...(range.toSequence !== undefined ? [range.toSequence] : []),
    ) as number;
  probe.pluck(false);
  return changed <= SMALL_CHANGE_SET;
}

/** The few changed rows of a small incremental, through the sequence index, sorted by key. */
function changedRows(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
  selected: string,
): unknown[] {
  const test = rowTest(range);
  const prefix = range.keyPrefix ?? '';
  const statement = sqliteStatement(
    handle,
    `select key, ${selected} from entries indexed by entries_by_sequence ` +
      `where physical_tree_id = ? and ${test?.text ?? '1'} order by key`,
  );
  const rows = statement.raw(true).all(physicalTreeId, ...(test?.params ?? [])) as [
    string,
    unknown,
  ][];
  statement.raw(false);
  return rows.flatMap(([key, value]) => (key.startsWith(prefix) ? [value] : []));
}

/** The range's lines (`line` is the SQL of one line), `rowsPerChunk` to a batch. */
export async function* sqliteLineBatches(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
  line: string,
  rowsPerChunk: number,
): AsyncGenerator<string[]> {
  if (smallChangeSet(handle, physicalTreeId, range)) {
    const lines = changedRows(handle, physicalTreeId, range, line) as string[];
    for (let at = 0; at < lines.length; at += rowsPerChunk) {
      yield lines.slice(at, at + rowsPerChunk);
    }
    return;
  }
  let lines: string[] = [];
  for await (const step of walk(handle, physicalTreeId, range, line)) {
    // A chunk is never more than `rowsPerChunk` lines, whatever a step read: the caller's page
    // (its progress and its afterPage seam) comes between chunks.
    for (const value of step) {
      lines.push(value as string);
      if (lines.length >= rowsPerChunk) {
        yield lines;
        lines = [];
      }
    }
  }
  if (lines.length > 0) yield lines;
}

/** How many lines sqliteLineBatches yields for the range, counted in the same bounded steps. */
export async function countSqliteLines(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
): Promise<number> {
  if (smallChangeSet(handle, physicalTreeId, range)) {
    return changedRows(handle, physicalTreeId, range, '1').length;
  }
  let count = 0;
  for await (const step of walk(handle, physicalTreeId, range, '1')) count += step.length;
  return count;
}
