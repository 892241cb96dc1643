import { sql, type Expression } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * A text column compared byte-wise in both databases. SQLite's default BINARY collation already
 * orders UTF-8 by bytes; PostgreSQL needs "C", or keyset paging would follow the locale.
 */
export function byteOrderedText(dialect: Dialect): Expression<unknown> | 'text' {
  return dialect === 'postgres' ? sql`text collate "C"` : 'text';
}

/** A 64-bit integer column: sequences, byte counts and epoch-millisecond times. */
export function int64(dialect: Dialect): 'bigint' | 'integer' {
  return dialect === 'postgres' ? 'bigint' : 'integer';
}
