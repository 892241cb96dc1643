import type { Selectable } from 'kysely';
import type { BackupRestoresTable } from '../database-schema.js';
import type { TreeDb } from '../data/tree-db.js';

/** SQL of stored restores: keyed by (tenant, restore operation id). */

/** A stored restore. */
export interface RestoreRow {
  tenant: string;
  operationId: string;
  backupId: string;
  targetTree: string;
  mode: string;
  restoredPhysicalTreeId: string;
  previousPhysicalTreeId: string | null;
  resultJson: string;
  createdAt: number;
  revertedAt: number | null;
  /** Who reverted it (a subject); null until reverted, and for reverts stored before it was. */
  revertedBy: string | null;
  /**
   * The restored physical tree's sequence high-water mark when the restore was installed:
   * entries above it were written since. Null for restores stored before it was recorded.
   */
  installedSequence: number | null;
}

function toRow(row: Selectable<BackupRestoresTable>): RestoreRow {
  return {
    tenant: row.tenant,
    operationId: row.operation_id,
    backupId: row.backup_id,
    targetTree: row.target_tree,
    mode: row.mode,
    restoredPhysicalTreeId: row.restored_physical_tree_id,
    previousPhysicalTreeId: row.previous_physical_tree_id,
    resultJson: row.result_json,
    createdAt: Number(row.created_at),
    revertedAt: row.reverted_at === null ? null : Number(row.reverted_at),
    revertedBy: row.reverted_by,
    installedSequence: row.installed_sequence === null ? null : Number(row.installed_sequence),
  };
}

/** The restore stored under (tenant, operation id), or undefined. */
export async function getRestore(
  handle: TreeDb,
  tenant: string,
  operationId: string,
): Promise<RestoreRow | undefined> {
  const row = await handle.db
    .selectFrom('backup_restores')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .executeTakeFirst();
  return row && toRow(row);
}

/** When a restore was reverted and by whom (null: reverted before who was recorded). */
export interface RestoreRevert {
  revertedAt: number;
  revertedBy: string | null;
}

/** The reverts of the named restores (by operation id) that were reverted; one query. */
export async function getRestoreReverts(
  handle: TreeDb,
  tenant: string,
  operationIds: readonly string[],
): Promise<Map<string, RestoreRevert>> {
  const reverts = new Map<string, RestoreRevert>();
  if (operationIds.length === 0) return reverts;
  const rows = await handle.db
    .selectFrom('backup_restores')
    .select(['operation_id', 'reverted_at', 'reverted_by'])
    .where('tenant', '=', tenant)
    .where('operation_id', 'in', [...new Set(operationIds)])
    .where('reverted_at', 'is not', null)
    .execute();
  for (const row of rows) {
    if (row.reverted_at === null) continue;
    reverts.set(row.operation_id, {
      revertedAt: Number(row.reverted_at),
      revertedBy: row.reverted_by,
    });
  }
  return reverts;
}

/** Stores a restore unless its operation id is taken; true when this call stored it. */
export async function insertRestore(
  handle: TreeDb,
  row: Omit<RestoreRow, 'revertedAt' | 'revertedBy'>,
): Promise<boolean> {
  const inserted = await handle.db
    .insertInto('backup_restores')
    .values({
      tenant: row.tenant,
      operation_id: row.operationId,
      backup_id: row.backupId,
      target_tree: row.targetTree,
      mode: row.mode,
      restored_physical_tree_id: row.restoredPhysicalTreeId,
      previous_physical_tree_id: row.previousPhysicalTreeId,
      result_json: row.resultJson,
      created_at: row.createdAt,
      reverted_at: null,
      installed_sequence: row.installedSequence,
    })
    .onConflict((oc) => oc.columns(['tenant', 'operation_id']).doNothing())
    .returning('operation_id')
    .executeTakeFirst();
  return inserted !== undefined;
}
