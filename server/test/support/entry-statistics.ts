import { sql } from 'kysely';
import type { Storage } from '../../src/storage/database.js';

/**
 * The rows of `entries` as the planner's statistics hold them, or undefined while the table has
 * never been analyzed: pg_class.reltuples (-1 until the first ANALYZE or VACUUM on PostgreSQL 14
 * and later), or the row count sqlite_stat1 starts its primary-key index row with.
 */
export async function analyzedEntryRows(storage: Storage): Promise<number | undefined> {
  if (storage.dialect === 'postgres') {
    const { rows } = await sql<{
      reltuples: number | string;
    }>`select reltuples from pg_class where oid = 'entries'::regclass`.execute(storage.db);
    const tuples = Number(rows[0]?.reltuples ?? -1);
    return tuples < 0 ? undefined : tuples;
  }
  const { rows: tables } = await sql<{
    name: string;
  }>`select name from sqlite_master where name = 'sqlite_stat1'`.execute(storage.db);
  if (tables.length === 0) return undefined;
  const { rows } = await sql<{
    stat: string;
  }>`select stat from sqlite_stat1 where tbl = 'entries' and idx = 'sqlite_autoindex_entries_1'`.execute(
    storage.db,
  );
  const stat = rows[0]?.stat;
  return stat === undefined ? undefined : Number.parseInt(stat, 10);
}
