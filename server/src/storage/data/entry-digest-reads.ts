import { sql } from 'kysely';
import { sqliteLineBatches } from './sqlite-entry-pages.js';
import { underPrefix, type TreeDb } from './tree-db.js';

/**
 * The reads a restore drill's digest makes of its scratch tree (issue 36): the same per-entry
 * text the content digest hashes (`<JSON key>,"valueJson":<JSON value>`, the slice of an
 * artifact line between `{"key":` and `,"sequence":`, engines/backup/capture/content-digest.ts),
 * built by the database from what it holds, by the fastest path each database has. Both read
 * live entries only, in key order, under `keyPrefix` ('' for the whole tree).
 */

/**
 * SQLite: the entry texts, `rowsPerChunk` at a time, walked along the primary key in bounded
 * synchronous steps (sqlite-entry-pages), so other calls are served between steps. Each text is
 * built by `json_quote`, as the capture's line is; no line framing to build and cut again.
 */
export function sqliteEntryDigestTexts(
  handle: TreeDb,
  physicalTreeId: string,
  keyPrefix: string,
  rowsPerChunk: number,
): AsyncIterable<string[]> {
  return sqliteLineBatches(
    handle,
    physicalTreeId,
    { liveOnly: true, ...(keyPrefix !== '' && { keyPrefix }) },
    `json_quote(key) || ',"valueJson":' || json_quote(value_json)`,
    rowsPerChunk,
  );
}

/** Limbs of 16 bits a SHA-256 is cut into for summing in PostgreSQL (int4 sums stay exact). */
export const HASH_LIMBS_16 = 16;

/** One chunk of a PostgreSQL hash sum: its entries, their summed hash limbs, its last key. */
export interface HashSumChunk {
  entries: number;
  /** Σ over the chunk's entries of each 16-bit big-endian limb of SHA-256(text), limb 0 first. */
  limbSums: bigint[];
  lastKey: string | null;
}

/**
 * PostgreSQL: up to `limit` live entries after `afterKey` (null: from the start), hashed and
 * summed by the database itself — `sha256` of the text `to_json` builds (as the capture's COPY
 * line does), cut into sixteen 16-bit limbs, each summed over the chunk — so one row crosses
 * the wire per chunk instead of every entry. The subquery is kept from being flattened
 * (`offset 0`): flattened, PostgreSQL computed the SHA-256 once per limb.
 * Call it inside a transaction (withReadSnapshot): JIT is switched off for it, since compiling
 * the sixteen sums cost more than the chunk's whole read.
 */
export async function postgresHashSumChunk(
  handle: TreeDb,
  physicalTreeId: string,
  keyPrefix: string,
  afterKey: string | null,
  limit: number,
): Promise<HashSumChunk> {
  await sql`set local jit = off`.execute(handle.db);
  const limbs = Array.from(
    { length: HASH_LIMBS_16 },
    (_, i) =>
      sql.raw(`sum((get_byte(h, ${2 * i}) << 8) | get_byte(h, ${2 * i + 1}))::text as l${i}`),
  );
  const conditions = [
    sql`physical_tree_id = ${physicalTreeId}`,
    sql`tombstone = 0`,
    ...(keyPrefix !== '' ? [underPrefix('key', keyPrefix)] : []),
    ...(afterKey !== null ? [sql`key > ${afterKey}`] : []),
  ];
  const result = await sql<Record<string, string | null>>`
    select count(*)::text as n, max(key) as last_key, ${sql.join(limbs)}
    from (
      select key, sha256(convert_to(
        to_json(key)::text || ',"valueJson":' || to_json(value_json)::text, 'UTF8')) as h
      from entries where ${sql.join(conditions, sql` and `)}
      order by key limit ${limit} offset 0
    ) as chunk`.execute(handle.db);
  const row = result.rows[0] ?? {};
  return {
    entries: Number(row.n ?? 0),
    limbSums: Array.from({ length: HASH_LIMBS_16 }, (_, i) => BigInt(row[`l${i}`] ?? 0)),
    lastKey: row.last_key ?? null,
  };
}
