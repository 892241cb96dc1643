import { sql } from 'kysely';
import type { TreeDb } from './tree-db.js';

/**
 * On PostgreSQL a restore drill's scratch tree (issue 36) lives in an UNLOGGED table of its own,
 * made `LIKE entries INCLUDING ALL` (the same columns, defaults, primary key and indexes) when
 * the drill starts, and dropped with the scratch tree. Its rows are thrown away minutes later,
 * so writing them to the write-ahead log bought nothing: a million of them were 633 MB of WAL,
 * and their delete 396 MB more, to flush, to replicate to every standby and to archive; the
 * delete also left a million dead rows in `entries` for autovacuum (or nobody, where it is off). The drill's loader is the
 * restore's loader pointed at this table; without the WAL the apply runs ≈ 20 % faster
 * (docs/performance.md). The entries-count triggers are not copied: nothing counts or lists a
 * scratch tree. A crash of the server leaves the table to the next start's sweep of scratch
 * trees (dropPhysicalTree drops it); a crash of PostgreSQL empties it, as for any unlogged
 * table. SQLite has no unlogged tables: its scratch tree stays in `entries`.
 */

/** The scratch table of a physical tree (`pt_<uuid>` ids: lower-case letters, digits, `_`). */
export function scratchEntriesTable(physicalTreeId: string): string {
  return `drill_scratch_${physicalTreeId.toLowerCase().replace(/[^a-z0-9]/g, '_')}`;
}

/**
 * Makes `physicalTreeId`'s scratch table (PostgreSQL) and returns the handle a drill writes and
 * reads it through; SQLite: `handle` itself.
 */
export async function openScratchEntries(handle: TreeDb, physicalTreeId: string): Promise<TreeDb> {
  if (handle.dialect !== 'postgres') return handle;
  const table = scratchEntriesTable(physicalTreeId);
  await sql`create unlogged table ${sql.table(table)} (like entries including all)`.execute(
    handle.db,
  );
  return { ...handle, postgresEntriesTable: table };
}

/** Drops `physicalTreeId`'s scratch table if it has one (PostgreSQL; inside the drop's transaction). */
export async function dropScratchEntries(handle: TreeDb, physicalTreeId: string): Promise<void> {
  if (handle.dialect !== 'postgres') return;
  const table = scratchEntriesTable(physicalTreeId);
  // to_regclass first: no lock and no notice for the trees (most) that never had one.
  const { rows } = await sql<{ found: string | null }>`
    select to_regclass(${table})::text as found`.execute(handle.db);
  if (rows[0]?.found) await sql`drop table ${sql.table(table)}`.execute(handle.db);
}

/** The scratch tables in the schema the handle sees (tests look for none left). */
export async function scratchEntriesTables(handle: TreeDb): Promise<string[]> {
  if (handle.dialect !== 'postgres') return [];
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c
    where c.relkind = 'r' and c.relname like 'drill\\_scratch\\_%'
      and c.relnamespace = current_schema()::regnamespace
    order by c.relname`.execute(handle.db);
  return rows.map((r) => r.name);
}
