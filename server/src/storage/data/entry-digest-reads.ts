import { CompiledQuery } from 'kysely';
import { sqliteLineBatches } from './sqlite-entry-pages.js';
import { entriesTableOf, prefixEnd, type TreeDb } from './tree-db.js';

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

/** Entries hashed and summed by PostgreSQL: their count and their summed hash limbs. */
export interface HashSums {
  entries: number;
  /** Σ over the entries of each 16-bit big-endian limb of SHA-256(text), limb 0 first. */
  limbSums: bigint[];
}

export interface HashSumOptions {
  /** Entries per statement: a cancel and the throttle come between statements. */
  rowsPerChunk: number;
  /** About how many entries the range holds (it splits the range in two halves); 0: unknown. */
  expectedEntries: number;
  /** Where to split the range, if the caller knows a key near its middle (else it is found). */
  middleKey?: string | undefined;
  /** Awaited after each statement with the entries read so far over both halves; may throw. */
  afterChunk(entriesSoFar: number): Promise<void>;
}

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * PostgreSQL: the live entries under `keyPrefix` hashed by the database itself — `sha256` of
 * the text `to_json` builds (as the capture's COPY line does) — one row of concatenated hashes
 * per statement, whose sixteen 16-bit limbs are summed here.
 * The range is cut at its middle key and the halves are read at once, `handle`'s own connection
 * taking the first and a second connection in the same snapshot (SET TRANSACTION SNAPSHOT) the
 * second: the hashing then runs on two backends, two cores. Each half goes `rowsPerChunk`
 * entries a statement along the primary key. Call it inside withReadSnapshot.
 */
export async function postgresHashSums(
  handle: TreeDb,
  physicalTreeId: string,
  keyPrefix: string,
  options: HashSumOptions,
): Promise<HashSums> {
  const own: Query = async (text, params) =>
    (await handle.db.executeQuery(CompiledQuery.raw(text, params))).rows as Record<
      string,
      unknown
    >[];
  await own(READ_BACK_SETTINGS, []);
  const scope = scopeConditions(entriesTableOf(handle), physicalTreeId, keyPrefix);
  const half = Math.floor(options.expectedEntries / 2);
  const split = half > options.rowsPerChunk && handle.postgresPool && handle.postgresSnapshot;
  const middle = !split
    ? undefined
    : (options.middleKey ??
      ((
        await own(
          `select key from ${scope.table} where ${scope.text} order by key offset ${half} limit 1`,
          scope.params,
        )
      )[0]?.key as string | undefined));
  const total: HashSums = { entries: 0, limbSums: new Array<bigint>(HASH_LIMBS_16).fill(0n) };
  const sumHalf = async (query: Query, from: string | undefined, before: string | undefined) => {
    let after: string | undefined;
    for (;;) {
      const chunk = await hashSumChunk(query, scope, { from, after, before }, options.rowsPerChunk);
      total.entries += chunk.entries;
      chunk.limbSums.forEach((limb, i) => (total.limbSums[i]! += limb));
      await options.afterChunk(total.entries);
      if (chunk.entries < options.rowsPerChunk || chunk.lastKey === null) return;
      after = chunk.lastKey;
    }
  };
  if (middle === undefined || !handle.postgresPool || !handle.postgresSnapshot) {
    await sumHalf(own, undefined, undefined);
    return total;
  }
  const client = await handle.postgresPool.connect();
  let healthy = false;
  try {
    await client.query(
      `begin isolation level repeatable read read only; ` +
        `set transaction snapshot ${client.escapeLiteral(handle.postgresSnapshot)}; ` +
        READ_BACK_SETTINGS,
    );
    const peer: Query = async (text, params) => (await client.query(text, params)).rows;
    const halves = await Promise.allSettled([
      sumHalf(own, undefined, middle),
      sumHalf(peer, middle, undefined),
    ]);
    for (const result of halves) if (result.status === 'rejected') throw result.reason;
    await client.query('commit');
    healthy = true;
    return total;
  } finally {
    client.release(healthy ? undefined : true);
  }
}

/**
 * The read-back's transaction settings. Compiling the expressions (JIT) cost more than a chunk's
 * whole read. A drill's scratch table on PostgreSQL was made moments ago and has no statistics:
 * the planner then took a sequential scan and a sort of the whole table for each chunk (9 s a
 * million entries instead of 2); the primary key walk is the plan in every case.
 */
const READ_BACK_SETTINGS =
  'set local jit = off; set local enable_seqscan = off; set local enable_bitmapscan = off';

interface Conditions {
  /** The table the tree's entries are in (entries, or a drill's scratch table). */
  table: string;
  text: string;
  params: unknown[];
}

/** The tree's live entries under the prefix, as SQL conditions with $-numbered parameters. */
function scopeConditions(table: string, physicalTreeId: string, keyPrefix: string): Conditions {
  const params: unknown[] = [physicalTreeId];
  // The id as a sub-select: a drill reads its scratch tree right after loading it, before the
  // planner has statistics of it. Given the id, PostgreSQL expects one row and may walk the
  // (physical tree, sequence) index and sort; not seeing it, it plans for a tree's usual size
  // and walks the primary key in key order (restore-drill-store.ts, liveValuesIn, found it).
  const conditions = ['physical_tree_id = (select $1::text)', 'tombstone = 0'];
  if (keyPrefix !== '') {
    params.push(keyPrefix);
    conditions.push('key >= $2');
    const end = prefixEnd(keyPrefix);
    if (end === undefined) {
      conditions.push('left(key, char_length($2)) = $2');
    } else {
      params.push(end);
      conditions.push(`key < $3`);
    }
  }
  return { table, text: conditions.join(' and '), params };
}

/** One statement's sums: up to `limit` entries of the scope within the bounds, in key order. */
async function hashSumChunk(
  query: Query,
  scope: Conditions,
  bounds: { from: string | undefined; after: string | undefined; before: string | undefined },
  limit: number,
): Promise<HashSums & { lastKey: string | null }> {
  const params = [...scope.params];
  const conditions = [scope.text];
  const bound = (operator: string, key: string | undefined) => {
    if (key === undefined) return;
    params.push(key);
    conditions.push(`key ${operator} $${params.length}`);
  };
  bound('>=', bounds.after === undefined ? bounds.from : undefined);
  bound('>', bounds.after);
  bound('<', bounds.before);
  // The hashes cross the wire whole (32 bytes an entry) and are summed here: sixteen sums of
  // extracted limbs cost PostgreSQL a sixth of the chunk's time, the copy next to nothing.
  // `offset 0` keeps the subquery from being flattened.
  const rows = await query(
    `select count(*)::text as n, max(key) as last_key, string_agg(h, ''::bytea) as hashes from (` +
      `select key, sha256(convert_to(to_json(key)::text || ',"valueJson":' || ` +
      `to_json(value_json)::text, 'UTF8')) as h from ${scope.table} ` +
      `where ${conditions.join(' and ')} order by key limit ${Math.trunc(limit)} offset 0` +
      `) as chunk`,
    params,
  );
  const row = rows[0] ?? {};
  const entries = Number(row.n ?? 0);
  return {
    entries,
    limbSums: limbSumsOf(row.hashes, entries),
    lastKey: (row.last_key as string | null | undefined) ?? null,
  };
}

/** The sixteen 16-bit limb sums of `entries` concatenated SHA-256 hashes (a bytea's Buffer). */
function limbSumsOf(hashes: unknown, entries: number): bigint[] {
  const sums = new Array<number>(HASH_LIMBS_16).fill(0);
  if (entries > 0) {
    if (!Buffer.isBuffer(hashes) || hashes.length !== entries * 32) {
      throw new Error('the read-back chunk did not return one 32-byte hash per entry');
    }
    // 65 535 · 50 000 entries a chunk stays far below 2^53: plain numbers add exactly.
    for (let at = 0; at < hashes.length; at += 32) {
      for (let i = 0; i < HASH_LIMBS_16; i++) sums[i]! += hashes.readUInt16BE(at + 2 * i);
    }
  }
  return sums.map(BigInt);
}
