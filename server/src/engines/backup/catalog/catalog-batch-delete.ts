import { deleteBackupRows } from '../../../storage/backup/backup-store.js';
import {
  getProtections,
  lockBackupRows,
} from '../../../storage/backup/lifecycle/backup-protection-store.js';
import type { Storage } from '../../../storage/database.js';
import { withTransaction, type TreeDb } from '../../../storage/data/tree-db.js';
import type { ArtifactStore, BackupFilesRef } from '../artifacts/index.js';
import type { BackupManifestDoc } from '../backup-types.js';
import {
  protectedRefusal,
  UNNAMED_SUBJECTS,
  type SubjectNamer,
} from '../lifecycle/protection-refusal.js';

/** What one batch delete did. */
export interface BatchDeleteResult {
  /** Catalog rows deleted (and then their artifacts), in the order asked. */
  deleted: string[];
  /** Left in place: a backup outside the batch still depends on them (directly or through one of the batch). */
  blocked: string[];
  /**
   * Why the artifact store kept files of deleted backups: the rows are gone all the same (rows
   * first), what it kept is scrub's. Undefined when it removed everything.
   */
  artifactsError?: unknown;
}

/**
 * Deletes a batch of backups without cascade: the catalog rows in one transaction, then their
 * files in one batch delete of the artifact store, by the keys their manifests list (rows first,
 * as the single delete: a crash in between leaves orphan files scrub prunes, never a row whose
 * artifacts are gone; a store failure is returned with what was deleted, not thrown). A backup of the batch that a
 * backup outside it still depends on is left, with every base of the batch under it, so no row
 * ever names a base that is gone; absent ids are skipped. Refused (FailedPrecondition naming the
 * protection) when a backup it would delete is protected; then nothing is deleted.
 */
export async function deleteBackupBatch(
  storage: Storage,
  artifacts: ArtifactStore,
  tenant: string,
  ids: readonly string[],
  names: SubjectNamer = UNNAMED_SUBJECTS,
): Promise<BatchDeleteResult> {
  if (ids.length === 0) return { deleted: [], blocked: [] };
  const outcome = await withTransaction(storage, async (tx) => {
    // Locked first: a protection made meanwhile lands before (and refuses this) or finds the
    // backups gone.
    await lockBackupRows(tx, tenant, ids);
    const present = await presentFiles(tx, tenant, ids);
    const blocked = await blockedByOutsiders(tx, tenant, new Set(present.keys()));
    const deleted = ids.filter((id) => present.has(id) && !blocked.has(id));
    const held = await getProtections(tx, tenant, deleted);
    if (held.length > 0) return { held };
    await deleteBackupRows(tx, tenant, deleted);
    return {
      result: { deleted, blocked: ids.filter((id) => blocked.has(id)) },
      files: deleted.map((id) => present.get(id)!),
    };
  });
  // Worded after the transaction: naming a person reads outside it (SQLite has one writer).
  if (outcome.held) {
    throw await protectedRefusal(storage, tenant, outcome.held[0]!.backupId, outcome.held, names);
  }
  const { result, files } = outcome;
  try {
    await artifacts.deleteManyBackupFiles(tenant, files);
  } catch (error) {
    return { ...result, artifactsError: error };
  }
  return result;
}

/** The batch's backups in the catalog, with the artifacts their manifests list. */
export async function presentFiles(
  tx: TreeDb,
  tenant: string,
  ids: readonly string[],
): Promise<Map<string, BackupFilesRef>> {
  const rows = await tx.db
    .selectFrom('backups')
    .select(['id', 'manifest_json'])
    .where('tenant', '=', tenant)
    .where('id', 'in', ids)
    .execute();
  const found = new Map<string, BackupFilesRef>();
  for (const row of rows) {
    const manifest = JSON.parse(row.manifest_json) as Partial<BackupManifestDoc>;
    const artifactIds = (manifest.artifacts ?? []).map((a) => a.artifactId);
    found.set(row.id, { backupId: row.id, artifactIds });
  }
  return found;
}

/**
 * The backups of the batch that must stay: those with a direct dependant outside the batch,
 * and then every base of the batch under one that stays.
 */
async function blockedByOutsiders(
  tx: TreeDb,
  tenant: string,
  batch: ReadonlySet<string>,
): Promise<Set<string>> {
  const blocked = new Set<string>();
  if (batch.size === 0) return blocked;
  const links = await tx.db
    .selectFrom('backups')
    .select(['id', 'base_backup_id'])
    .where('tenant', '=', tenant)
    .where('base_backup_id', 'in', [...batch])
    .execute();
  const baseOf = new Map<string, string>();
  for (const link of links) {
    if (link.base_backup_id === null) continue;
    if (batch.has(link.id)) baseOf.set(link.id, link.base_backup_id);
    else blocked.add(link.base_backup_id);
  }
  // Walk down each blocked backup's chain inside the batch: its bases stay too.
  for (const start of [...blocked]) {
    for (let base = baseOf.get(start); base !== undefined; base = baseOf.get(base)) {
      if (blocked.has(base)) break;
      blocked.add(base);
    }
  }
  return blocked;
}
