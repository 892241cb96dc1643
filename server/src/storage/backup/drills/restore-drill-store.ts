import { sql } from 'kysely';
import { entriesTableOf, type TreeDb } from '../../data/tree-db.js';

/** SQL of restore drills: their results (migration 0029) and their scratch trees. */

export interface BackupRestoreDrillsTable {
  tenant: string;
  operation_id: string;
  backup_id: string;
  set_id: string | null;
  tree_name: string;
  key_prefix: string;
  outcome: string;
  reason_kind: string;
  reason: string;
  first_differing_key: string | null;
  entries: number;
  duration_ms: number;
  sample_seed: string;
  sample_size: number;
  started_at: number;
  finished_at: number;
  started_by: string;
}

declare module '../../database-schema.js' {
  interface Database {
    backup_restore_drills: BackupRestoreDrillsTable;
  }
}

/** A finished drill of one backup as stored. */
export interface StoredDrill {
  tenant: string;
  operationId: string;
  backupId: string;
  setId: string | null;
  treeName: string;
  keyPrefix: string;
  outcome: 'PROVEN' | 'FAILED';
  reasonKind: string;
  reason: string;
  firstDifferingKey: string | null;
  entries: number;
  durationMs: number;
  sampleSeed: string;
  sampleSize: number;
  startedAt: number;
  finishedAt: number;
  startedBy: string;
  /** The backup's name in the catalog, read beside the drill; null once the backup is deleted. */
  backupName?: string | null;
}

/**
 * The tree name a drill's scratch physical tree carries. ':' is no tree name's character
 * (tree-names.ts), and no logical tree ever points at the scratch tree, so no listing shows it
 * and no write can reach it; the name only ties it to its operation for the leftover sweep.
 */
export const SCRATCH_TREE_PREFIX = 'drill:';

export function scratchTreeName(operationId: string): string {
  return `${SCRATCH_TREE_PREFIX}${operationId}`;
}

/** Records a finished drill of one backup (a resumed run that recorded it keeps the first row). */
export async function insertDrill(handle: TreeDb, drill: StoredDrill): Promise<void> {
  await handle.db
    .insertInto('backup_restore_drills')
    .values({
      tenant: drill.tenant,
      operation_id: drill.operationId,
      backup_id: drill.backupId,
      set_id: drill.setId,
      tree_name: drill.treeName,
      key_prefix: drill.keyPrefix,
      outcome: drill.outcome,
      reason_kind: drill.reasonKind,
      reason: drill.reason,
      first_differing_key: drill.firstDifferingKey,
      entries: drill.entries,
      duration_ms: drill.durationMs,
      sample_seed: drill.sampleSeed,
      sample_size: drill.sampleSize,
      started_at: drill.startedAt,
      finished_at: drill.finishedAt,
      started_by: drill.startedBy,
    })
    .onConflict((oc) => oc.columns(['tenant', 'operation_id', 'backup_id']).doNothing())
    .execute();
}

/** A drill's stored rows (a set's: one per member), by its operation id. */
export async function getDrillRows(
  handle: TreeDb,
  tenant: string,
  operationId: string,
): Promise<StoredDrill[]> {
  const rows = await handle.db
    .selectFrom('backup_restore_drills')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .orderBy('tree_name')
    .execute();
  return withBackupNames(handle, tenant, rows.map(toStoredDrill));
}

/** A scope's drills, newest first; a page continues strictly before `before` (finished_at, id). */
export async function listDrills(
  handle: TreeDb,
  scope: { tenant: string; treeName: string; keyPrefix: string },
  page: { limit: number; before?: { finishedAt: number; operationId: string } | undefined },
): Promise<StoredDrill[]> {
  const before = page.before;
  const rows = await handle.db
    .selectFrom('backup_restore_drills')
    .selectAll()
    .where('tenant', '=', scope.tenant)
    .where('tree_name', '=', scope.treeName)
    .where('key_prefix', '=', scope.keyPrefix)
    .$if(before !== undefined, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('finished_at', '<', before!.finishedAt),
          eb.and([
            eb('finished_at', '=', before!.finishedAt),
            eb('operation_id', '<', before!.operationId),
          ]),
        ]),
      ),
    )
    .orderBy('finished_at', 'desc')
    .orderBy('operation_id', 'desc')
    .limit(page.limit)
    .execute();
  return withBackupNames(handle, scope.tenant, rows.map(toStoredDrill));
}

/**
 * Scratch trees no drill is working in: their drill is neither queued nor running under a live
 * lease (it ended, or its process was killed and its lease lapsed). A killed drill still under
 * its lease is left to its resumed run, which drops its predecessor's tree first (another
 * replica may be running it: only its lease says it is dead).
 */
export async function leftoverScratchTrees(handle: TreeDb, now: number): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('physical_trees')
    .select(['physical_trees.id', 'physical_trees.tree_name'])
    .where('physical_trees.tree_name', 'like', `${SCRATCH_TREE_PREFIX}%`)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('operations')
            .select('operations.id')
            .whereRef('operations.tenant', '=', 'physical_trees.tenant')
            .where(sql<boolean>`physical_trees.tree_name = ${SCRATCH_TREE_PREFIX} || operations.id`)
            .where((eb) =>
              eb.or([
                eb('operations.state', '=', 'QUEUED'),
                eb.and([
                  eb('operations.state', '=', 'RUNNING'),
                  eb('operations.lease_expires_at', '>', now),
                ]),
              ]),
            ),
        ),
      ),
    )
    .orderBy('physical_trees.id')
    .execute();
  return rows.map((r) => r.id);
}

/** The scratch trees of one drill (a resumed run drops what its killed predecessor filled). */
export async function scratchTreesOf(
  handle: TreeDb,
  tenant: string,
  operationId: string,
): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('physical_trees')
    .select('id')
    .where('tenant', '=', tenant)
    .where('tree_name', '=', scratchTreeName(operationId))
    .execute();
  return rows.map((r) => r.id);
}

/** Every scratch tree of a tenant (tests and the leftover check look for none). */
export async function allScratchTrees(handle: TreeDb, tenant: string): Promise<string[]> {
  const rows = await handle.db
    .selectFrom('physical_trees')
    .select('id')
    .where('tenant', '=', tenant)
    .where('tree_name', 'like', `${SCRATCH_TREE_PREFIX}%`)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * The stored values of those of `keys` that are live in a physical tree (a spot-check), in one
 * query: a scratch tree was just bulk-loaded and the planner may not know it yet, so a query per
 * key could each scan the entries table.
 */
export async function liveValuesIn(
  handle: TreeDb,
  physicalTreeId: string,
  keys: readonly string[],
): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  if (handle.dialect === 'postgres') {
    // Read just after a bulk load, the tree is not in the planner's statistics yet: given its id,
    // PostgreSQL expected one row and took the (physical tree, sequence) index, filtering every
    // entry of the tree by key (0.4–0.6 s at 1 M entries; a lateral lookup per key did it once per
    // key: 12 s). The id as a sub-select is a value the planner cannot see, so it estimates a
    // tree's usual size, and only the primary key serves the keys.
    const { rows } = await sql<{ key: string; value_json: string | null }>`
      select key, value_json from ${sql.table(entriesTableOf(handle))}
      where physical_tree_id = (select ${physicalTreeId}::text)
        and key = any(${keys}::text[]) and tombstone = 0`.execute(handle.db);
    return new Map(rows.flatMap((r) => (r.value_json === null ? [] : [[r.key, r.value_json]])));
  }
  const rows = await handle.db
    .selectFrom('entries')
    .select(['key', 'value_json'])
    .where('physical_tree_id', '=', physicalTreeId)
    .where('key', 'in', keys)
    .where('tombstone', '=', 0)
    .execute();
  return new Map(rows.flatMap((r) => (r.value_json === null ? [] : [[r.key, r.value_json]])));
}

/**
 * Adds each drill's backup name from the catalog, in one read of the backups' primary key, so a
 * history names backups as the rest of the console does (null for a deleted backup).
 */
export async function withBackupNames(
  handle: TreeDb,
  tenant: string,
  drills: StoredDrill[],
): Promise<StoredDrill[]> {
  const ids = [...new Set(drills.map((d) => d.backupId))];
  if (ids.length === 0) return drills;
  const rows = await handle.db
    .selectFrom('backups')
    .select(['id', 'name'])
    .where('tenant', '=', tenant)
    .where('id', 'in', ids)
    .execute();
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return drills.map((d) => ({ ...d, backupName: names.get(d.backupId) ?? null }));
}

/** A stored row as the engines read it. */
export function toStoredDrill(row: BackupRestoreDrillsTable): StoredDrill {
  return {
    tenant: row.tenant,
    operationId: row.operation_id,
    backupId: row.backup_id,
    setId: row.set_id,
    treeName: row.tree_name,
    keyPrefix: row.key_prefix,
    outcome: row.outcome === 'PROVEN' ? 'PROVEN' : 'FAILED',
    reasonKind: row.reason_kind,
    reason: row.reason,
    firstDifferingKey: row.first_differing_key,
    entries: Number(row.entries),
    durationMs: Number(row.duration_ms),
    sampleSeed: row.sample_seed,
    sampleSize: row.sample_size,
    startedAt: Number(row.started_at),
    finishedAt: Number(row.finished_at),
    startedBy: row.started_by,
  };
}
