import { newPhysicalTreeId, type TreeDb } from './tree-db.js';

/**
 * Finding and locking a logical tree. Every write to a tree first locks its `trees` row (FOR
 * UPDATE on PostgreSQL; SQLite has one writer anyway), so writers, write locks and swaps on one
 * tree are serialised, and sequences follow commit order.
 */

/** Where a logical tree's entries live now. */
export interface ResolvedTree {
  physicalTreeId: string;
  lastSequence: number;
  writeLockedBy: string | null;
  updatedAt: number;
}

/** The logical tree (tenant, name) with its physical tree, or undefined. */
export async function resolveTree(
  handle: TreeDb,
  tenant: string,
  name: string,
): Promise<ResolvedTree | undefined> {
  const row = await handle.db
    .selectFrom('trees')
    .innerJoin('physical_trees', 'physical_trees.id', 'trees.physical_tree_id')
    .select([
      'trees.physical_tree_id',
      'trees.write_locked_by',
      'trees.updated_at',
      'physical_trees.last_sequence',
    ])
    .where('trees.tenant', '=', tenant)
    .where('trees.name', '=', name)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    physicalTreeId: row.physical_tree_id,
    lastSequence: Number(row.last_sequence),
    writeLockedBy: row.write_locked_by,
    updatedAt: Number(row.updated_at),
  };
}

/** Reads and (on PostgreSQL) row-locks a logical tree until the transaction ends. */
export async function selectTreeForUpdate(
  tx: TreeDb,
  tenant: string,
  name: string,
): Promise<{ physicalTreeId: string; writeLockedBy: string | null } | undefined> {
  const row = await tx.db
    .selectFrom('trees')
    .select(['physical_tree_id', 'write_locked_by'])
    .where('tenant', '=', tenant)
    .where('name', '=', name)
    .$if(tx.dialect === 'postgres', (qb) => qb.forUpdate())
    .executeTakeFirst();
  return row && { physicalTreeId: row.physical_tree_id, writeLockedBy: row.write_locked_by };
}

/**
 * Inserts the logical tree pointing at `physicalTreeId` unless it exists; true when this call
 * created it. A concurrent creator's uncommitted row makes PostgreSQL wait, then do nothing.
 */
export async function insertLogicalTree(
  tx: TreeDb,
  tenant: string,
  name: string,
  physicalTreeId: string,
  now: number,
): Promise<boolean> {
  const inserted = await tx.db
    .insertInto('trees')
    .values({
      tenant,
      name,
      physical_tree_id: physicalTreeId,
      write_locked_by: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['tenant', 'name']).doNothing())
    .returning('physical_tree_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Locks the logical tree, creating it (with its physical tree) when it does not exist. */
export async function lockOrCreateTree(tx: TreeDb, tenant: string, name: string, now: number) {
  const existing = await selectTreeForUpdate(tx, tenant, name);
  if (existing) return existing;
  const physicalTreeId = newPhysicalTreeId();
  // Only the creator of the logical row adds the physical one, so a lost race leaves no orphan.
  if (await insertLogicalTree(tx, tenant, name, physicalTreeId, now)) {
    await tx.db
      .insertInto('physical_trees')
      .values({ id: physicalTreeId, tenant, tree_name: name, last_sequence: 0, created_at: now })
      .execute();
  }
  const created = await selectTreeForUpdate(tx, tenant, name);
  if (!created) throw new Error(`tree ${tenant}/${name} vanished while being created`);
  return created;
}
