import { sql } from 'kysely';
import type { TreeDb } from './tree-db.js';

/** A physical tree whose kept counts differ from its entries as counted now. */
export interface KeptCountMismatch {
  physicalTreeId: string;
  kept: { entries: number; bytes: number };
  counted: { entries: number; bytes: number };
}

/**
 * Compares every physical tree's kept live-entry count and bytes (migration 0025's triggers) to
 * a count(*) of its entries, in one read of `handle` (run it in a snapshot or a transaction to
 * check a database that is being written). Reads every entry: a check, not a listing.
 */
export async function checkKeptCounts(handle: TreeDb): Promise<KeptCountMismatch[]> {
  const bytes =
    handle.dialect === 'postgres'
      ? sql`octet_length(e.key) + coalesce(octet_length(e.value_json), 0)`
      : sql`length(cast(e.key as blob)) + coalesce(length(cast(e.value_json as blob)), 0)`;
  const { rows } = await sql<{
    id: string;
    live_entries: number | string;
    live_bytes: number | string;
    n: number | string | null;
    b: number | string | null;
  }>`
    select p.id, p.live_entries, p.live_bytes, c.n, c.b
    from physical_trees p left join (
      select e.physical_tree_id, count(*) as n, sum(${bytes}) as b
      from entries e where e.tombstone = 0 group by e.physical_tree_id
    ) c on c.physical_tree_id = p.id
    order by p.id
  `.execute(handle.db);
  return rows.flatMap((row) => {
    const kept = { entries: Number(row.live_entries), bytes: Number(row.live_bytes) };
    const counted = { entries: Number(row.n ?? 0), bytes: Number(row.b ?? 0) };
    return kept.entries === counted.entries && kept.bytes === counted.bytes
      ? []
      : [{ physicalTreeId: row.id, kept, counted }];
  });
}
