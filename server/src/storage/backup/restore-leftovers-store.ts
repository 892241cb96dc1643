import type { TreeDb } from '../data/tree-db.js';

/**
 * Physical trees a restore left behind when its process died between filling its fresh tree and
 * installing it (DESIGN.md §3: the fresh tree stays invisible until the install transaction).
 * A physical tree is a leftover when no logical tree points at it and no stored restore keeps it
 * (a SHADOW result, or the tree an IN_PLACE restore replaced, kept for RevertRestore). While any
 * restore of the tenant is queued or holds a live lease there are none: its fresh tree looks
 * exactly like a leftover until it is installed. A restore drill's scratch tree looks the same
 * while it runs, so a live drill counts too (its leftovers are swept by name: drills/).
 */
export async function leftoverRestoreTrees(
  handle: TreeDb,
  tenant: string,
  now: number,
): Promise<string[]> {
  const live = await handle.db
    .selectFrom('operations')
    .select('id')
    .where('tenant', '=', tenant)
    .where('kind', 'in', ['RESTORE', 'COLD_RESTORE', 'RESTORE_DRILL'])
    .where((eb) =>
      eb.or([
        eb('state', '=', 'QUEUED'),
        eb.and([eb('state', '=', 'RUNNING'), eb('lease_expires_at', '>', now)]),
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  if (live) return [];
  const rows = await handle.db
    .selectFrom('physical_trees')
    .select('id')
    .where('tenant', '=', tenant)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('trees')
            .select('trees.name')
            .whereRef('trees.physical_tree_id', '=', 'physical_trees.id'),
        ),
      ),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('backup_restores')
            .select('backup_restores.operation_id')
            .where((inner) =>
              inner.or([
                inner(
                  'backup_restores.restored_physical_tree_id',
                  '=',
                  inner.ref('physical_trees.id'),
                ),
                inner(
                  'backup_restores.previous_physical_tree_id',
                  '=',
                  inner.ref('physical_trees.id'),
                ),
              ]),
            ),
        ),
      ),
    )
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
