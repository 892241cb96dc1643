import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Statement as SqliteStatement } from 'better-sqlite3';
import type pg from 'pg';
import type { Dialect } from '../database.js';
import type { Database, EntriesTable } from '../database-schema.js';

/** A database handle with its dialect: a Storage, or a transaction from withTransaction. */
export interface TreeDb {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * SQLite: a prepared statement on the same connection as `db` (kept prepared per SQL text),
   * for hot loops that would spend more time in Kysely's query building than in SQLite.
   */
  sqlitePrepare?: ((sql: string) => SqliteStatement) | undefined;
  /** PostgreSQL: the pool behind `db`, for COPY streams on a connection of their own. */
  postgresPool?: pg.Pool | undefined;
  /**
   * PostgreSQL, inside withReadSnapshot: the snapshot's exported id, so a COPY on another
   * connection reads exactly what `db` reads (SET TRANSACTION SNAPSHOT).
   */
  postgresSnapshot?: string | undefined;
  /**
   * PostgreSQL: the table this handle's tree lives in when it is not `entries` — a drill's
   * scratch tree has an unlogged table of its own (scratch-entries.ts). Honoured by what a drill
   * runs: the hidden-tree loader, the upsert of bulkInsertEntries, and the drill's reads.
   */
  postgresEntriesTable?: string | undefined;
}

/** The table `handle`'s entries are in (a name this code made: checked, never quoted input). */
export function entriesTableOf(handle: TreeDb): string {
  const table = handle.postgresEntriesTable ?? 'entries';
  if (!/^[a-z][a-z0-9_]*$/.test(table)) throw new Error(`not an entries table name: ${table}`);
  return table;
}

/** A SQLite statement prepared on `handle`'s connection (see TreeDb.sqlitePrepare). */
export function sqliteStatement(handle: TreeDb, text: string): SqliteStatement {
  if (!handle.sqlitePrepare) throw new Error('a SQLite handle without its prepared statements');
  return handle.sqlitePrepare(text);
}

/** Runs `fn` in a transaction, or inside the caller's one when `handle` already is one. */
export async function withTransaction<T>(
  handle: TreeDb,
  fn: (tx: TreeDb) => Promise<T>,
): Promise<T> {
  if (handle.db.isTransaction) return fn(handle);
  return handle.db.transaction().execute((trx) => fn({ ...handle, db: trx }));
}

/** One stored entry row; tombstones have a null value. */
export interface StoredEntry {
  key: string;
  valueJson: string | null;
  tombstone: boolean;
  sequence: number;
  schemaVersion: number;
  updatedAt: number;
}

/** A fresh physical tree id. */
export function newPhysicalTreeId(): string {
  return `pt_${randomUUID()}`;
}

/** Maps an entries row to a StoredEntry. */
export function toStoredEntry(row: Selectable<EntriesTable>): StoredEntry {
  return {
    key: row.key,
    valueJson: row.value_json,
    tombstone: Number(row.tombstone) !== 0,
    sequence: Number(row.sequence),
    schemaVersion: Number(row.schema_version),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * `column` starts with `prefix`. Not LIKE: SQLite's LIKE ignores case and both treat % and _ as
 * wildcards. substr and length count characters (code points) identically in both databases.
 */
export function startsWith(column: string, prefix: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`substr(${sql.ref(column)}, 1, ${[...prefix].length}) = ${prefix}`;
}

/**
 * `column` starts with `prefix`, as a range of the key index: from the prefix up to the first
 * string after all that start with it (prefixEnd), so a page under a prefix reads only that
 * prefix's part of the tree, and the planner can estimate it (PostgreSQL took `key >= prefix`
 * plus an opaque substr test for a few rows, and read the rest of the tree into a sort).
 */
export function underPrefix(column: string, prefix: string): RawBuilder<SqlBool> {
  const end = prefixEnd(prefix);
  const from = sql<SqlBool>`${sql.ref(column)} >= ${prefix}`;
  if (end === undefined) return sql<SqlBool>`(${from} and ${startsWith(column, prefix)})`;
  return sql<SqlBool>`(${from} and ${sql.ref(column)} < ${end})`;
}

/**
 * The least string after every string that starts with `prefix`, in the byte order of UTF-8
 * (code-point order, as both databases compare keys): the prefix with its last code point
 * raised by one, skipping the surrogates. Undefined when there is none (only U+10FFFF, or a
 * lone surrogate, which key validation refuses anyway).
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix];
  for (let last = points.pop(); last !== undefined; last = points.pop()) {
    const point = last.codePointAt(0) ?? 0;
    if (point >= 0xd800 && point <= 0xdfff) return undefined;
    if (point < 0x10ffff) {
      return points.join('') + String.fromCodePoint(point + 1 === 0xd800 ? 0xe000 : point + 1);
    }
  }
  return undefined;
}
