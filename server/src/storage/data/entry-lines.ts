import { to as copyTo } from 'pg-copy-streams';
import { sql } from 'kysely';
import { countSqliteLines, sqliteLineBatches } from './sqlite-entry-pages.js';
import type { TreeDb } from './tree-db.js';

/** Which entries of a physical tree a capture reads. */
export interface EntryLineRange {
  /** Only sequence > fromSequence (an incremental); tombstones are then kept. */
  fromSequence?: number;
  /**
   * Only sequence ≤ toSequence (the snapshot point). Leave it out to read everything the
   * snapshot sees. (SQLite tests it per row while walking the key index, so it costs no sort.)
   */
  toSequence?: number;
  keyPrefix?: string;
  /** Leave tombstones out (a full capture restores into an empty tree). */
  liveOnly: boolean;
  /**
   * A live entry whose value_json is NULL reads as the JSON text `null` (`"valueJson":"null"`),
   * as readLiveValues reads it, instead of a tombstone's `null` (SQLite) or no line (PostgreSQL):
   * a comparison reads the live tree this way.
   */
  nullValueAsJsonNull?: boolean;
}

/**
 * The selected entries in key order, as artifact lines — `{"key":…,"valueJson":…,"sequence":…,
 * "schemaVersion":…}\n`, byte for byte what engines/backup/artifacts/ndjson-codec.ts
 * `encodeRecord` writes (both databases' JSON string quoting equals JSON.stringify's; a test in
 * entry-lines.test.ts holds them to it) — in chunks that may end inside a line.
 *
 * The database builds the lines, so the capture's process only compresses and hashes them:
 * PostgreSQL streams them with `COPY (SELECT …) TO STDOUT` (pg-copy-streams) on its own
 * connection, inside the caller's snapshot (withReadSnapshot exports it; the copy imports it),
 * so the server's backend works on the other core while this process compresses. SQLite reads
 * them on the snapshot's connection in bounded steps along the key index (sqlite-entry-pages),
 * `rowsPerChunk` rows a chunk; between steps the event loop serves other calls.
 *
 * Stopping the iteration early (an abort) ends the read: PostgreSQL's connection is discarded.
 */
export function streamEntryLines(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
  rowsPerChunk: number,
): AsyncIterable<Buffer> {
  return handle.dialect === 'postgres'
    ? copyOutLines(handle, physicalTreeId, range)
    : sqliteLines(handle, physicalTreeId, range, rowsPerChunk);
}

/**
 * How many lines `streamEntryLines` yields for this range, counted in the caller's snapshot
 * before reading: a capture's progress total, so the console can show a percent and an
 * estimate. Same conditions as the stream. A full capture of a whole tree at the snapshot's own
 * last sequence is the tree's kept live count (migration 0025), read in the same snapshot;
 * otherwise SQLite counts in the stream's bounded steps and PostgreSQL with count(*).
 */
export async function countEntryLines(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
): Promise<number> {
  const kept = await keptLineCount(handle, physicalTreeId, range);
  if (kept !== undefined) return kept;
  if (handle.dialect === 'sqlite') return countSqliteLines(handle, physicalTreeId, range);
  const params: (string | number)[] = [];
  const where = whereClause(range, (value) => {
    params.push(value === '?tree' ? physicalTreeId : value);
    return '\u0000';
  });
  // The clause's placeholders become bound parameters of either dialect.
  const parts = where.split('\u0000');
  const condition = sql.join(
    parts.map((text, i) => (i < params.length ? sql`${sql.raw(text)}${params[i]}` : sql.raw(text))),
    sql``,
  );
  const result = await sql<{
    n: number | string;
  }>`select count(*) as n from entries where ${condition}`.execute(handle.db);
  return Number(result.rows[0]?.n ?? 0);
}

/** The tree's kept live count when the range is exactly its live entries, else undefined. */
async function keptLineCount(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
): Promise<number | undefined> {
  if (!range.liveOnly || range.fromSequence !== undefined || (range.keyPrefix ?? '') !== '') {
    return undefined;
  }
  const tree = await handle.db
    .selectFrom('physical_trees')
    .select(['live_entries', 'last_sequence'])
    .where('id', '=', physicalTreeId)
    .executeTakeFirst();
  if (!tree) return 0;
  const everything =
    range.toSequence === undefined || range.toSequence >= Number(tree.last_sequence);
  return everything ? Number(tree.live_entries) : undefined;
}

/**
 * The same lines as `streamEntryLines`, as arrays of whole lines without their newline, for a
 * reader that compares them as text (a restore preview): SQLite's rows are handed out as the
 * strings it returns, `rowsPerChunk` at a time, with no round trip through bytes.
 */
export function streamEntryLineBatches(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
  rowsPerChunk: number,
): AsyncIterable<string[]> {
  return handle.dialect === 'postgres'
    ? splitLines(copyOutLines(handle, physicalTreeId, range))
    : sqliteLineBatches(
        handle,
        physicalTreeId,
        range,
        lineExpression('json_quote', range),
        rowsPerChunk,
      );
}

async function* splitLines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string[]> {
  let carry: Buffer | undefined;
  for await (const chunk of chunks) {
    // Cut at the last newline before decoding: no character is split, the text decoded once.
    const bytes = carry ? Buffer.concat([carry, chunk]) : chunk;
    const end = bytes.lastIndexOf(0x0a);
    if (end === -1) {
      carry = bytes;
      continue;
    }
    carry = end + 1 < bytes.length ? bytes.subarray(end + 1) : undefined;
    yield bytes.toString('utf8', 0, end).split('\n');
  }
  if (carry) throw new Error('the encoded lines end inside a line');
}

/** One artifact line per row; `quote` is the dialect's JSON string quoting function. */
function lineExpression(quote: 'json_quote' | 'to_json', range: EntryLineRange): string {
  const q = (column: string) =>
    quote === 'to_json' ? `to_json(${column})::text` : `json_quote(${column})`;
  const value = range.nullValueAsJsonNull ? `coalesce(value_json, 'null')` : 'value_json';
  return (
    `'{"key":' || ${q('key')} || ',"valueJson":' || ` +
    `case when tombstone <> 0 then 'null' else ${q(value)} end || ` +
    `',"sequence":' || sequence || ',"schemaVersion":' || schema_version || '}'`
  );
}

function whereClause(range: EntryLineRange, literal: (value: string | number) => string): string {
  const conditions = [`physical_tree_id = ${literal('?tree')}`];
  if (range.toSequence !== undefined) {
    conditions.push(`sequence <= ${literal(range.toSequence)}`);
  }
  if (range.fromSequence !== undefined) {
    conditions.push(`sequence > ${literal(range.fromSequence)}`);
  }
  if (range.liveOnly) conditions.push('tombstone = 0');
  const prefix = range.keyPrefix ?? '';
  if (prefix !== '') {
    // A range the key index serves, then the exact test (LIKE ignores case in SQLite and treats
    // % and _ as wildcards; substr and length count code points alike in both databases).
    conditions.push(`key >= ${literal(prefix)}`);
    conditions.push(`substr(key, 1, ${[...prefix].length}) = ${literal(prefix)}`);
  }
  return conditions.join(' and ');
}

async function* sqliteLines(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
  rowsPerChunk: number,
): AsyncGenerator<Buffer> {
  const line = lineExpression('json_quote', range);
  for await (const lines of sqliteLineBatches(handle, physicalTreeId, range, line, rowsPerChunk)) {
    yield Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  }
}

async function* copyOutLines(
  handle: TreeDb,
  physicalTreeId: string,
  range: EntryLineRange,
): AsyncGenerator<Buffer> {
  const pool = handle.postgresPool;
  if (!pool) throw new Error('a PostgreSQL handle without its pool');
  const client = await pool.connect();
  let healthy = false;
  try {
    // A snapshot of its own unless the caller's is given: then exactly the caller's view. One
    // round trip: both statements go as one simple query (an incremental pays every trip).
    const begin = 'begin isolation level repeatable read read only';
    await client.query(
      handle.postgresSnapshot
        ? `${begin}; set transaction snapshot ${client.escapeLiteral(handle.postgresSnapshot)}`
        : begin,
    );
    const literal = (value: string | number) =>
      typeof value === 'number'
        ? String(safeInteger(value))
        : client.escapeLiteral(value === '?tree' ? physicalTreeId : value);
    // Sorted in a subquery, then encoded: when the rows come from the sequence index (an
    // incremental) PostgreSQL sorts the rows and then streams each line as it encodes it,
    // instead of encoding every line before the sort lets the first one out. The subquery's
    // ORDER BY keeps it from being flattened, and the outer one is then already satisfied.
    const select =
      `select ${lineExpression('to_json', range)} from (select * from entries ` +
      `where ${whereClause(range, literal)} order by key) as e order by key`;
    // CSV with a delimiter and a quote character that JSON text never holds raw (it escapes every
    // control character): each line comes out exactly as selected, with no escaping to undo.
    const stream = client.query(
      copyTo(`copy (${select}) to stdout with (format csv, delimiter e'\\x01', quote e'\\x02')`),
    );
    for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
    await client.query('commit');
    healthy = true;
  } finally {
    // An unfinished COPY leaves the connection mid-protocol: never hand it to anyone else.
    client.release(healthy ? undefined : true);
  }
}

function safeInteger(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return value;
}
