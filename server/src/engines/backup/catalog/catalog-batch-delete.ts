import { deleteBackupRows } from '../../../storage/backup-store.js';
import { getProtections, lockBackupRows } from '../../../storage/backup-protection-store.js';
import type { Storage } from '../../../storage/database.js';
import { withTransaction, type TreeDb } from '../../../storage/tree-db.js';
import type { ArtifactStore } from '../artifacts/index.js';
import { protectedRefusal } from '../lifecycle/protection-refusal.js';

/** Artifact deletions in flight at once: enough to hide an object store's round trips (3 a backup). */
const ARTIFACT_DELETE_CONCURRENCY = 16;

/** What one batch delete did. */
export interface BatchDeleteResult {
  /** Catalog rows deleted (and then their artifacts), in the order asked. */
  deleted: string[];
  /** Left in place: a backup outside the batch still depends on them (directly or through one of the batch). */
  blocked: string[];
}

/**
 * Deletes a batch of backups without cascade: the catalog rows in one transaction, then their
 * artifacts with bounded concurrency (rows first, as the single delete: a crash in between leaves
 * orphan files scrub prunes, never a row whose artifacts are gone). A backup of the batch that a
 * backup outside it still depends on is left, with every base of the batch under it, so no row
 * ever names a base that is gone; absent ids are skipped. Refused (FailedPrecondition naming the
 * protection) when a backup it would delete is protected; then nothing is deleted.
 */
export async function deleteBackupBatch(
  storage: Storage,
  artifacts: ArtifactStore,
  tenant: string,
  ids: readonly string[],
): Promise<BatchDeleteResult> {
  if (ids.length === 0) return { deleted: [], blocked: [] };
  const result = await withTransaction(storage, async (tx) => {
    // Locked first: a protection made meanwhile lands before (and refuses this) or finds the
    // backups gone.
    await lockBackupRows(tx, tenant, ids);
    const present = await presentIds(tx, tenant, ids);
    const blocked = await blockedByOutsiders(tx, tenant, present);
    const deleted = ids.filter((id) => present.has(id) && !blocked.has(id));
    const held = await getProtections(tx, tenant, deleted);
    if (held.length > 0) throw protectedRefusal(held[0]!.backupId, held);
    await deleteBackupRows(tx, tenant, deleted);
    return { deleted, blocked: ids.filter((id) => blocked.has(id)) };
  });
  let next = 0;
  const worker = async () => {
    while (next < result.deleted.length) {
      const id = result.deleted[next++]!;
      await artifacts.deleteBackupFiles(tenant, id);
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(ARTIFACT_DELETE_CONCURRENCY, result.deleted.length) }, worker),
  );
  return result;
}

async function presentIds(tx: TreeDb, tenant: string, ids: readonly string[]) {
  const rows = await tx.db
    .selectFrom('backups')
    .select('id')
    .where('tenant', '=', tenant)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((r) => r.id));
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
