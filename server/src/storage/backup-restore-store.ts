import type { Selectable } from 'kysely';
import type { BackupRestoresTable } from './schema.js';
import type { TreeDb } from './tree-db.js';

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

/** Stores a restore unless its operation id is taken; true when this call stored it. */
export async function insertRestore(
  handle: TreeDb,
  row: Omit<RestoreRow, 'revertedAt'>,
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
