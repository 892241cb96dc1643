import { sql } from 'kysely';
import {
  entriesTableOf,
  newPhysicalTreeId,
  sqliteStatement,
  toStoredEntry,
  underPrefix,
  withTransaction,
  type StoredEntry,
  type TreeDb,
} from './tree-db.js';
import { dropScratchEntries } from './scratch-entries.js';
import { deleteTreeEntriesInSteps } from './stepped-tree-writes.js';
import { insertLogicalTree, selectTreeForUpdate } from './tree-lock.js';

/**
 * SQL primitives of backup and restore over physical trees: reading entries with tombstones,
 * filling a fresh physical tree, swapping a logical tree to it, and the write lock of a cold
 * restore. Engines compose them (several in one transaction through withTransaction).
 */

/** A physical tree's own row. */
export interface PhysicalTree {
  id: string;
  tenant: string;
  treeName: string;
  lastSequence: number;
  createdAt: number;
}

/** A physical tree by id, or undefined. */
export async function getPhysicalTree(
  handle: TreeDb,
  physicalTreeId: string,
): Promise<PhysicalTree | undefined> {
  const row = await handle.db
    .selectFrom('physical_trees')
    .selectAll()
    .where('id', '=', physicalTreeId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      tenant: row.tenant,
      treeName: row.tree_name,
      lastSequence: Number(row.last_sequence),
      createdAt: Number(row.created_at),
    }
  );
}

/**
 * Entries of a physical tree INCLUDING tombstones, in byte order of key, one page after
 * `afterKey`; only fromSequence < sequence ≤ toSequence when given (an incremental capture).
 */
export async function readPhysicalEntries(
  handle: TreeDb,
  physicalTreeId: string,
  page: {
    afterKey?: string;
    limit: number;
    fromSequence?: number;
    toSequence?: number;
    keyPrefix?: string;
  },
): Promise<StoredEntry[]> {
  const prefix = page.keyPrefix ?? '';
  const rows = await handle.db
    .selectFrom('entries')
    .selectAll()
    .where('physical_tree_id', '=', physicalTreeId)
    .$if(page.afterKey !== undefined, (qb) => qb.where('key', '>', page.afterKey ?? ''))
    .$if(page.fromSequence !== undefined, (qb) => qb.where('sequence', '>', page.fromSequence ?? 0))
    .$if(page.toSequence !== undefined, (qb) => qb.where('sequence', '<=', page.toSequence ?? 0))
    .$if(prefix !== '', (qb) => qb.where(underPrefix('key', prefix)))
    .orderBy('key')
    .limit(page.limit)
    .execute();
  return rows.map(toStoredEntry);
}

/**
 * A fresh, empty physical tree for a tenant's tree, not yet reachable from the logical tree.
 * `lastSequence` lets a restore continue the numbering of the tree it will replace.
 */
export async function createPhysicalTree(
  handle: TreeDb,
  tree: { tenant: string; treeName: string; now: number; lastSequence?: number },
): Promise<string> {
  const id = newPhysicalTreeId();
  await handle.db
    .insertInto('physical_trees')
    .values({
      id,
      tenant: tree.tenant,
      tree_name: tree.treeName,
      last_sequence: tree.lastSequence ?? 0,
      created_at: tree.now,
    })
    .execute();
  return id;
}

/** An entry as a restore writes it: sequence and schema version come from the backup. */
export interface EntryToInsert {
  key: string;
  /** Canonical JSON; null for a tombstone. */
  valueJson: string | null;
  tombstone: boolean;
  sequence: number;
  schemaVersion: number;
  updatedAt: number;
}

/**
 * Upserts entries into a physical tree in one statement and one transaction, and raises its
 * last_sequence to at least the highest sequence written (and `lastSequence` when given). A key
 * given twice keeps its last occurrence, as applying a backup chain in order would.
 */
export async function bulkInsertEntries(
  handle: TreeDb,
  physicalTreeId: string,
  entries: readonly EntryToInsert[],
  options: { lastSequence?: number; hiddenTree?: boolean } = {},
): Promise<void> {
  // An upsert may not touch one row twice (PostgreSQL refuses it), so duplicates go first.
  const byKey = new Map(entries.map((entry) => [entry.key, entry]));
  const rows = [...byKey.values()].map((entry) => toEntryRow(physicalTreeId, entry));
  const highest = rows.reduce((max, row) => Math.max(max, row.sequence), options.lastSequence ?? 0);
  const insert = async (tx: TreeDb) => {
    if (!(await raiseLastSequence(tx, physicalTreeId, highest))) {
      throw new Error(`physical tree ${physicalTreeId} does not exist`);
    }
    if (tx.dialect === 'postgres') await upsertByArrays(tx, physicalTreeId, rows);
    else await upsertRowsSqlite(tx, rows);
  };
  if (options.hiddenTree && !handle.db.isTransaction) {
    await withoutOwnFlush(handle, insert);
  } else await withTransaction(handle, insert);
}

/**
 * Runs `fn` in a transaction whose commit does not wait for its own flush to disk (it is visible
 * at once, only its durability waits): for writes whose loss in a crash costs nothing but the
 * operation that made them — rows of a physical tree nothing can see yet (a restore's), or a
 * capture's claim and RUNNING status (a crash kills the capture too). The commit that later
 * makes the work count is a normal, flushed one, and the write-ahead log is flushed in order,
 * so that commit makes every earlier one durable with it. SQLite: synchronous = NORMAL (WAL)
 * for this transaction only, on the one connection held throughout, so no other caller's
 * commit runs with it. PostgreSQL: SET LOCAL synchronous_commit = off.
 */
export async function withoutOwnFlush(
  handle: TreeDb,
  fn: (tx: TreeDb) => Promise<void>,
): Promise<void> {
  if (handle.dialect === 'postgres') {
    await handle.db.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = off`.execute(trx);
      await fn({ ...handle, db: trx });
    });
    return;
  }
  await handle.db.connection().execute(async (connection) => {
    await sql`pragma synchronous = normal`.execute(connection);
    try {
      await connection.transaction().execute((trx) => fn({ ...handle, db: trx }));
    } finally {
      await sql`pragma synchronous = full`.execute(connection);
    }
  });
}

type EntryRow = ReturnType<typeof toEntryRow>;

function toEntryRow(physicalTreeId: string, entry: EntryToInsert) {
  return {
    physical_tree_id: physicalTreeId,
    key: entry.key,
    value_json: entry.tombstone ? null : entry.valueJson,
    tombstone: entry.tombstone ? 1 : 0,
    sequence: entry.sequence,
    schema_version: entry.schemaVersion,
    updated_at: entry.updatedAt,
  };
}

/** What every upsert of entries does with a key the tree already holds: the new row wins. */
export const REPLACE_ON_KEY_CONFLICT = `on conflict (physical_tree_id, key) do update set
    value_json = excluded.value_json, tombstone = excluded.tombstone,
    sequence = excluded.sequence, schema_version = excluded.schema_version,
    updated_at = excluded.updated_at`;

const SQLITE_UPSERT = `
  insert into entries
    (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
  values (?, ?, ?, ?, ?, ?, ?)
  ${REPLACE_ON_KEY_CONFLICT}`;

/**
 * SQLite: one prepared single-row upsert run per row, inside the caller's transaction on the
 * same connection. SQLite runs in-process, so a statement per row costs no round trip; building
 * the batch as one Kysely query (multi-VALUES, or one JSON array read by json_each) spent more
 * time in query building and JSON than SQLite spent inserting.
 */
async function upsertRowsSqlite(tx: TreeDb, rows: readonly EntryRow[]): Promise<void> {
  if (rows.length === 0) return;
  const upsert = sqliteStatement(tx, SQLITE_UPSERT);
  for (const r of rows) {
    upsert.run(
      r.physical_tree_id,
      r.key,
      r.value_json,
      r.tombstone,
      r.sequence,
      r.schema_version,
      r.updated_at,
    );
  }
}

/**
 * PostgreSQL: the whole batch in ONE upsert whose rows come from six array parameters (unnest),
 * instead of multi-VALUES statements of 500 rows × 7 parameters — one round trip, one plan, and
 * no per-parameter binding cost. The keys must be distinct (bulkInsertEntries dedups them).
 */
async function upsertByArrays(
  tx: TreeDb,
  physicalTreeId: string,
  rows: readonly EntryRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into ${sql.table(entriesTableOf(tx))}
      (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
    select ${physicalTreeId}, k, v, t, s, sv, u
    from unnest(
      ${rows.map((r) => r.key)}::text[], ${rows.map((r) => r.value_json)}::text[],
      ${rows.map((r) => r.tombstone)}::integer[], ${rows.map((r) => r.sequence)}::bigint[],
      ${rows.map((r) => r.schema_version)}::integer[], ${rows.map((r) => r.updated_at)}::bigint[]
    ) as batch(k, v, t, s, sv, u)
    ${sql.raw(REPLACE_ON_KEY_CONFLICT)}
  `.execute(tx.db);
}

/** Sets last_sequence to `atLeast` unless it is already higher; false when no such tree. */
export async function raiseLastSequence(
  handle: TreeDb,
  physicalTreeId: string,
  atLeast: number,
): Promise<boolean> {
  // CASE rather than max()/greatest(): SQLite and PostgreSQL spell those differently.
  const result = await handle.db
    .updateTable('physical_trees')
    .set((eb) => ({
      last_sequence: eb
        .case()
        .when('last_sequence', '<', atLeast)
        .then(atLeast)
        .else(eb.ref('last_sequence'))
        .end(),
    }))
    .where('id', '=', physicalTreeId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What a swap did: the physical tree it replaced, or why it did not happen. */
export type SwapOutcome =
  | { swapped: true; previousPhysicalTreeId: string | undefined }
  | { swapped: false; currentPhysicalTreeId: string | undefined };

/**
 * Points a logical tree at another physical tree of the same tenant, atomically, creating the
 * logical tree when missing. With `expectedPhysicalTreeId` it is a compare-and-set: a tree that
 * points elsewhere (or does not exist) is left alone. The old physical tree is kept.
 */
export async function swapPhysicalTree(
  handle: TreeDb,
  swap: {
    tenant: string;
    treeName: string;
    physicalTreeId: string;
    now: number;
    expectedPhysicalTreeId?: string;
  },
): Promise<SwapOutcome> {
  const { tenant, treeName, physicalTreeId, now, expectedPhysicalTreeId } = swap;
  return withTransaction(handle, async (tx) => {
    // FOR SHARE so a concurrent dropPhysicalTree cannot remove the target under the swap.
    const target = await tx.db
      .selectFrom('physical_trees')
      .select('tenant')
      .where('id', '=', physicalTreeId)
      .$if(tx.dialect === 'postgres', (qb) => qb.forShare())
      .executeTakeFirst();
    if (!target || target.tenant !== tenant) {
      // Only a bug gets here: engines pass ids they made for this tenant.
      throw new Error(`physical tree ${physicalTreeId} is not one of tenant ${tenant}'s`);
    }
    let current = await selectTreeForUpdate(tx, tenant, treeName);
    if (!current) {
      if (expectedPhysicalTreeId !== undefined) {
        return { swapped: false, currentPhysicalTreeId: undefined };
      }
      if (await insertLogicalTree(tx, tenant, treeName, physicalTreeId, now)) {
        return { swapped: true, previousPhysicalTreeId: undefined };
      }
      current = await selectTreeForUpdate(tx, tenant, treeName);
      if (!current) throw new Error(`tree ${tenant}/${treeName} vanished during a swap`);
    }
    if (expectedPhysicalTreeId !== undefined && current.physicalTreeId !== expectedPhysicalTreeId) {
      return { swapped: false, currentPhysicalTreeId: current.physicalTreeId };
    }
    await tx.db
      .updateTable('trees')
      .set({ physical_tree_id: physicalTreeId, updated_at: now })
      .where('tenant', '=', tenant)
      .where('name', '=', treeName)
      .execute();
    return { swapped: true, previousPhysicalTreeId: current.physicalTreeId };
  });
}

/**
 * Compare-and-set of a tree's write lock: sets write_locked_by to `next` only while it equals
 * `expected` (null = unlocked). False when it held something else or the tree does not exist
 * (ensureTree first to lock a tree that has never been written).
 */
export async function compareAndSetWriteLock(
  handle: TreeDb,
  lock: { tenant: string; treeName: string; expected: string | null; next: string | null },
): Promise<boolean> {
  const result = await handle.db
    .updateTable('trees')
    .set({ write_locked_by: lock.next })
    .where('tenant', '=', lock.tenant)
    .where('name', '=', lock.treeName)
    .where((eb) =>
      lock.expected === null
        ? eb('write_locked_by', 'is', null)
        : eb('write_locked_by', '=', lock.expected),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Live (non-tombstone) entries of a physical tree, as the tree keeps them (migration 0025):
 * exact in `handle`'s transaction or snapshot, without counting the entries.
 */
export async function countLiveEntries(handle: TreeDb, physicalTreeId: string): Promise<number> {
  const row = await handle.db
    .selectFrom('physical_trees')
    .select('live_entries')
    .where('id', '=', physicalTreeId)
    .executeTakeFirst();
  return Number(row?.live_entries ?? 0);
}

/** True when a logical tree points at the physical tree. */
async function pointedAt(handle: TreeDb, physicalTreeId: string): Promise<boolean> {
  const user = await handle.db
    .selectFrom('trees')
    .select('name')
    .where('physical_tree_id', '=', physicalTreeId)
    .executeTakeFirst();
  return user !== undefined;
}

/** Removes every entry (tombstones too) of a physical tree; returns how many. */
export async function deletePhysicalTreeEntries(
  handle: TreeDb,
  physicalTreeId: string,
): Promise<number> {
  const result = await handle.db
    .deleteFrom('entries')
    .where('physical_tree_id', '=', physicalTreeId)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Drops a physical tree and its entries unless a logical tree still points at it. Outside a
 * caller's transaction, the entries of a tree nothing points at go first in bounded steps
 * (deleteTreeEntriesInSteps: on SQLite one DELETE of 1 M entries held the event loop for
 * seconds); the last transaction then checks again and removes what is left and the tree's row.
 * Only trees a restore or a drill filled for itself are dropped, and nothing swaps such a tree
 * in once its filler gave it up, so no logical tree can come to point at it half-way.
 */
export async function dropPhysicalTree(
  handle: TreeDb,
  physicalTreeId: string,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<boolean> {
  if (!handle.db.isTransaction && !(await pointedAt(handle, physicalTreeId))) {
    await deleteTreeEntriesInSteps(handle, physicalTreeId, { signal: options.signal });
  }
  return withTransaction(handle, async (tx) => {
    // Lock the physical row first: a swap to it then either committed already (and is seen
    // below) or waits and finds it gone.
    await tx.db
      .selectFrom('physical_trees')
      .select('id')
      .where('id', '=', physicalTreeId)
      .$if(tx.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    const user = await tx.db
      .selectFrom('trees')
      .select('name')
      .where('physical_tree_id', '=', physicalTreeId)
      .executeTakeFirst();
    if (user) return false;
    await deletePhysicalTreeEntries(tx, physicalTreeId);
    // A drill's scratch tree has a table of its own on PostgreSQL: it goes with the tree's row.
    await dropScratchEntries(tx, physicalTreeId);
    const result = await tx.db
      .deleteFrom('physical_trees')
      .where('id', '=', physicalTreeId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  });
}
