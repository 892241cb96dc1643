import {
  newPhysicalTreeId,
  startsWith,
  toStoredEntry,
  withTransaction,
  type StoredEntry,
  type TreeDb,
} from './tree-db.js';

export { withTransaction, type StoredEntry, type TreeDb } from './tree-db.js';

/**
 * SQL for logical trees and their entries (DESIGN.md §5). Every write to a tree first locks its
 * `trees` row (FOR UPDATE on PostgreSQL; SQLite has one writer anyway), so writers, write locks
 * and swaps on one tree are serialised, and sequences follow commit order.
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

async function lockOrCreateTree(tx: TreeDb, tenant: string, name: string, now: number) {
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

/** The logical tree, created empty (with a physical tree) when it does not exist yet. */
export async function ensureTree(
  handle: TreeDb,
  tenant: string,
  name: string,
  now: number,
): Promise<ResolvedTree> {
  return withTransaction(handle, async (tx) => {
    await lockOrCreateTree(tx, tenant, name, now);
    const tree = await resolveTree(tx, tenant, name);
    if (!tree) throw new Error(`tree ${tenant}/${name} has no physical tree`);
    return tree;
  });
}

async function nextSequence(tx: TreeDb, physicalTreeId: string): Promise<number> {
  const row = await tx.db
    .updateTable('physical_trees')
    .set((eb) => ({ last_sequence: eb('last_sequence', '+', 1) }))
    .where('id', '=', physicalTreeId)
    .returning('last_sequence')
    .executeTakeFirstOrThrow();
  return Number(row.last_sequence);
}

async function touchTree(tx: TreeDb, tenant: string, name: string, now: number): Promise<void> {
  await tx.db
    .updateTable('trees')
    .set({ updated_at: now })
    .where('tenant', '=', tenant)
    .where('name', '=', name)
    .execute();
}

/** What a put did: written with its sequence, or refused because the tree is write-locked. */
export type PutOutcome =
  | { status: 'written'; sequence: number; physicalTreeId: string }
  | { status: 'locked'; lockedBy: string };

/** Writes one live entry (creating the tree on first write) with the tree's next sequence. */
export async function putEntry(
  handle: TreeDb,
  write: {
    tenant: string;
    treeName: string;
    key: string;
    valueJson: string;
    schemaVersion: number;
    now: number;
  },
): Promise<PutOutcome> {
  const { tenant, treeName, key, valueJson, schemaVersion, now } = write;
  return withTransaction(handle, async (tx) => {
    const tree = await lockOrCreateTree(tx, tenant, treeName, now);
    if (tree.writeLockedBy !== null) return { status: 'locked', lockedBy: tree.writeLockedBy };
    const sequence = await nextSequence(tx, tree.physicalTreeId);
    const row = {
      value_json: valueJson,
      tombstone: 0,
      sequence,
      schema_version: schemaVersion,
      updated_at: now,
    };
    await tx.db
      .insertInto('entries')
      .values({ physical_tree_id: tree.physicalTreeId, key, ...row })
      .onConflict((oc) => oc.columns(['physical_tree_id', 'key']).doUpdateSet(row))
      .execute();
    await touchTree(tx, tenant, treeName, now);
    return { status: 'written', sequence, physicalTreeId: tree.physicalTreeId };
  });
}

/** What a delete did: tombstoned, nothing live to delete, or refused by a write lock. */
export type DeleteOutcome =
  | { status: 'deleted'; sequence: number }
  | { status: 'absent' }
  | { status: 'locked'; lockedBy: string };

/** Replaces a live entry by a tombstone with the tree's next sequence; absent keys write nothing. */
export async function deleteEntry(
  handle: TreeDb,
  target: { tenant: string; treeName: string; key: string; now: number },
): Promise<DeleteOutcome> {
  const { tenant, treeName, key, now } = target;
  return withTransaction(handle, async (tx) => {
    const tree = await selectTreeForUpdate(tx, tenant, treeName);
    if (!tree) return { status: 'absent' };
    if (tree.writeLockedBy !== null) return { status: 'locked', lockedBy: tree.writeLockedBy };
    const live = await tx.db
      .selectFrom('entries')
      .select('key')
      .where('physical_tree_id', '=', tree.physicalTreeId)
      .where('key', '=', key)
      .where('tombstone', '=', 0)
      .executeTakeFirst();
    if (!live) return { status: 'absent' };
    const sequence = await nextSequence(tx, tree.physicalTreeId);
    await tx.db
      .updateTable('entries')
      .set({ value_json: null, tombstone: 1, sequence, updated_at: now })
      .where('physical_tree_id', '=', tree.physicalTreeId)
      .where('key', '=', key)
      .execute();
    await touchTree(tx, tenant, treeName, now);
    return { status: 'deleted', sequence };
  });
}

/** One live entry of a logical tree, or undefined (absent tree, absent key or tombstone). */
export async function getLiveEntry(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  key: string,
): Promise<StoredEntry | undefined> {
  const row = await handle.db
    .selectFrom('trees')
    .innerJoin('entries', 'entries.physical_tree_id', 'trees.physical_tree_id')
    .selectAll('entries')
    .where('trees.tenant', '=', tenant)
    .where('trees.name', '=', treeName)
    .where('entries.key', '=', key)
    .where('entries.tombstone', '=', 0)
    .executeTakeFirst();
  return row && toStoredEntry(row);
}

/** Live entries of a logical tree in byte order of key, after `afterKey`, under `keyPrefix`. */
export async function listLiveEntries(
  handle: TreeDb,
  tenant: string,
  treeName: string,
  page: { keyPrefix?: string; afterKey?: string; limit: number },
): Promise<StoredEntry[]> {
  const prefix = page.keyPrefix ?? '';
  const rows = await handle.db
    .selectFrom('trees')
    .innerJoin('entries', 'entries.physical_tree_id', 'trees.physical_tree_id')
    .selectAll('entries')
    .where('trees.tenant', '=', tenant)
    .where('trees.name', '=', treeName)
    .where('entries.tombstone', '=', 0)
    .$if(page.afterKey !== undefined, (qb) => qb.where('entries.key', '>', page.afterKey ?? ''))
    .$if(prefix !== '', (qb) =>
      qb.where('entries.key', '>=', prefix).where(startsWith('entries.key', prefix)),
    )
    .orderBy('entries.key')
    .limit(page.limit)
    .execute();
  return rows.map(toStoredEntry);
}

/** A logical tree as a tenant's tree list shows it. */
export interface TreeSummary {
  name: string;
  entryCount: number;
  updatedAt: number;
}

/** A tenant's trees in byte order of name, after `afterName`, with their live entry counts. */
export async function listTrees(
  handle: TreeDb,
  tenant: string,
  page: { afterName?: string; limit: number },
): Promise<TreeSummary[]> {
  const rows = await handle.db
    .selectFrom('trees')
    .select((eb) => [
      'trees.name',
      'trees.updated_at',
      eb
        .selectFrom('entries')
        .select((inner) => inner.fn.countAll().as('n'))
        .whereRef('entries.physical_tree_id', '=', 'trees.physical_tree_id')
        .where('entries.tombstone', '=', 0)
        .as('entry_count'),
    ])
    .where('trees.tenant', '=', tenant)
    .$if(page.afterName !== undefined, (qb) => qb.where('trees.name', '>', page.afterName ?? ''))
    .orderBy('trees.name')
    .limit(page.limit)
    .execute();
  return rows.map((row) => ({
    name: row.name,
    entryCount: Number(row.entry_count ?? 0),
    updatedAt: Number(row.updated_at),
  }));
}
