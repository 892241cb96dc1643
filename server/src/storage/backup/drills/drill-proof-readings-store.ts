import type { TreeDb } from '../../data/tree-db.js';

/** A tree's newest PROVEN restore drill (issue 36 bullet 6). */
export interface DrillProofReading {
  tenant: string;
  treeName: string;
  /** When its newest PROVEN drill finished (epoch ms). */
  lastProvenAt: number;
}

/**
 * Per tree (of one tenant, or of all): when a drill last PROVED one of its backups. One grouped
 * read of the partial index backup_restore_drills_proven (migration 0031), one row per tree: a
 * set's drill proves each member under its own tree, as the metrics count set members.
 */
export async function readLastProven(
  handle: TreeDb,
  tenant?: string,
): Promise<DrillProofReading[]> {
  const rows = await lastProvenQuery(handle, tenant).execute();
  return rows.map((r) => ({
    tenant: r.tenant,
    treeName: r.tree_name,
    lastProvenAt: Number(r.last_proven),
  }));
}

/** The statement readLastProven runs (its plan is asserted in a test). */
export function lastProvenQuery(handle: TreeDb, tenant?: string) {
  return handle.db
    .selectFrom('backup_restore_drills')
    .where('outcome', '=', 'PROVEN')
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .groupBy(['tenant', 'tree_name'])
    .select((eb) => ['tenant', 'tree_name', eb.fn.max('finished_at').as('last_proven')]);
}
