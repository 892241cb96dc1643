import type { TreeDb } from '../../data/tree-db.js';
import { toStoredDrill, withBackupNames, type StoredDrill } from './restore-drill-store.js';

/**
 * Proof reads (issue 36 bullet 5, migration 0032): the newest drill of each outcome for a page of
 * trees or a batch of backups, in one statement each. The grouped read walks only the asked
 * trees' (or backups') drills through their index, and the join fetches one row per group.
 */

/** The statement newestDrillsByOutcome runs (its plan is asserted in a test). */
export function newestDrillsQuery(
  handle: TreeDb,
  tenant: string,
  by: 'tree_name' | 'backup_id',
  values: readonly string[],
) {
  const newest = handle.db
    .selectFrom('backup_restore_drills')
    .select([by, 'outcome'])
    .select((eb) => eb.fn.max('finished_at').as('newest_at'))
    .where('tenant', '=', tenant)
    .where(by, 'in', values)
    .groupBy([by, 'outcome'])
    .as('newest');
  return handle.db
    .selectFrom('backup_restore_drills as d')
    .innerJoin(newest, (join) =>
      join
        .onRef(`d.${by}`, '=', `newest.${by}`)
        .onRef('d.outcome', '=', 'newest.outcome')
        .onRef('d.finished_at', '=', 'newest.newest_at'),
    )
    .selectAll('d')
    .where('d.tenant', '=', tenant)
    .orderBy('d.finished_at', 'desc')
    .orderBy('d.operation_id', 'desc');
}

/** The newest PROVEN and the newest FAILED drill of each of `values` (tree names or backup ids). */
export async function newestDrillsByOutcome(
  handle: TreeDb,
  tenant: string,
  by: 'tree_name' | 'backup_id',
  values: readonly string[],
): Promise<StoredDrill[]> {
  if (values.length === 0) return [];
  const rows = await newestDrillsQuery(handle, tenant, by, values).execute();
  return withBackupNames(handle, tenant, rows.map(toStoredDrill));
}

/** A page of the tenant's tree names in name order, strictly after `after`. */
export async function treeNamesPage(
  handle: TreeDb,
  tenant: string,
  page: { limit: number; after: string },
): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('trees')
    .select('name')
    .where('tenant', '=', tenant)
    .$if(page.after !== '', (qb) => qb.where('name', '>', page.after))
    .orderBy('name')
    .limit(page.limit)
    .execute();
  return rows.map((r) => r.name);
}
