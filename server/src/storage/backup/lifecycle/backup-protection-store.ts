import { withTransaction, type TreeDb } from '../../data/tree-db.js';
// The lifecycle tables' types are declared (merged into Database) there.
import type {} from './backup-lifecycle-store.js';

/** SQL of backup protections (pins, legal holds; migration 0016). */

/** A protection as stored. */
export interface Protection {
  backupId: string;
  protectedBy: string;
  protectedAt: number;
  reason: string;
}

/**
 * Protects a backup. Locks the catalog row first (PostgreSQL), so a delete in flight either
 * finishes before (and this finds no backup) or waits for the protection and sees it. Returns
 * the protection now in force (an earlier one is kept), or undefined when the backup is absent.
 */
export async function protectBackup(
  handle: TreeDb,
  tenant: string,
  protection: Protection,
): Promise<Protection | undefined> {
  return withTransaction(handle, async (tx) => {
    const row = await tx.db
      .selectFrom('backups')
      .select('id')
      .where('tenant', '=', tenant)
      .where('id', '=', protection.backupId)
      .$if(tx.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
    if (!row) return undefined;
    await tx.db
      .insertInto('backup_protections')
      .values({
        tenant,
        backup_id: protection.backupId,
        protected_by: protection.protectedBy,
        protected_at: protection.protectedAt,
        reason: protection.reason,
      })
      .onConflict((oc) => oc.columns(['tenant', 'backup_id']).doNothing())
      .execute();
    return (await getProtections(tx, tenant, [protection.backupId]))[0];
  });
}

/** Removes a protection; returns the one removed, or undefined when there was none. */
export async function unprotectBackup(
  handle: TreeDb,
  tenant: string,
  backupId: string,
): Promise<Protection | undefined> {
  return withTransaction(handle, async (tx) => {
    const [existing] = await getProtections(tx, tenant, [backupId]);
    if (!existing) return undefined;
    await tx.db
      .deleteFrom('backup_protections')
      .where('tenant', '=', tenant)
      .where('backup_id', '=', backupId)
      .execute();
    return existing;
  });
}

/** The protections among these backups. */
export async function getProtections(
  handle: TreeDb,
  tenant: string,
  backupIds: readonly string[],
): Promise<Protection[]> {
  if (backupIds.length === 0) return [];
  const out: Protection[] = [];
  for (let i = 0; i < backupIds.length; i += 500) {
    const rows = await handle.db
      .selectFrom('backup_protections')
      .selectAll()
      .where('tenant', '=', tenant)
      .where('backup_id', 'in', backupIds.slice(i, i + 500))
      .execute();
    out.push(...rows.map(toProtection));
  }
  return out;
}

function toProtection(r: {
  backup_id: string;
  protected_by: string;
  protected_at: number;
  reason: string;
}): Protection {
  return {
    backupId: r.backup_id,
    protectedBy: r.protected_by,
    protectedAt: Number(r.protected_at),
    reason: r.reason,
  };
}

/** A page of the tenant's protections (optionally of one tree), by backup id. */
export async function listProtections(
  handle: TreeDb,
  tenant: string,
  options: { treeName?: string | undefined; afterBackupId: string; limit: number },
): Promise<Protection[]> {
  const rows = await handle.db
    .selectFrom('backup_protections as p')
    .innerJoin('backups as b', (join) =>
      join.onRef('b.tenant', '=', 'p.tenant').onRef('b.id', '=', 'p.backup_id'),
    )
    .select(['p.backup_id', 'p.protected_by', 'p.protected_at', 'p.reason'])
    .where('p.tenant', '=', tenant)
    .$if(options.treeName !== undefined, (qb) =>
      qb.where('b.tree_name', '=', options.treeName ?? ''),
    )
    .where('p.backup_id', '>', options.afterBackupId)
    .orderBy('p.backup_id')
    .limit(options.limit)
    .execute();
  return rows.map(toProtection);
}

/** Locks catalog rows until the transaction ends (PostgreSQL; SQLite transactions are serial). */
export async function lockBackupRows(
  tx: TreeDb,
  tenant: string,
  ids: readonly string[],
): Promise<void> {
  if (tx.dialect !== 'postgres' || ids.length === 0) return;
  await tx.db
    .selectFrom('backups')
    .select('id')
    .where('tenant', '=', tenant)
    .where('id', 'in', ids)
    .orderBy('id')
    .forUpdate()
    .execute();
}
