import type { ScopeKey } from '../backup-scope-store.js';
import { withTransaction, type TreeDb } from '../../data/tree-db.js';
// The lifecycle tables' types are declared (merged into Database) there.
import type {} from './backup-lifecycle-store.js';

/**
 * SQL of retention's deletion claims (migration 0016): which retention operation deletes which
 * backup, so two replicas applying at once delete each backup once; kept as the record of what
 * retention freed.
 */

/** What a deletion claim records of its backup. */
export interface DeletionClaim {
  tenant: string;
  backupId: string;
  operationId: string;
  scope: ScopeKey;
  backupName: string;
  byteSize: number;
  /** When the backup was created: catalog growth counts it until its deletion. */
  backupCreatedAt?: number | undefined;
  now: number;
}

/**
 * Claims a backup for deletion by one retention operation: true when this operation holds the
 * claim. A claim another operation made is taken over only when that operation is no longer
 * running (finished, or its lease lapsed: its server died mid-delete) and the backup was not
 * deleted yet, so of two replicas applying at once exactly one deletes each backup.
 */
export async function claimDeletion(handle: TreeDb, claim: DeletionClaim): Promise<boolean> {
  const inserted = await handle.db
    .insertInto('backup_retention_deletions')
    .values({
      tenant: claim.tenant,
      backup_id: claim.backupId,
      operation_id: claim.operationId,
      tree_name: claim.scope.treeName,
      key_prefix: claim.scope.keyPrefix,
      backup_name: claim.backupName,
      byte_size: claim.byteSize,
      backup_created_at: claim.backupCreatedAt ?? null,
      claimed_at: claim.now,
      deleted_at: null,
    })
    .onConflict((oc) => oc.columns(['tenant', 'backup_id']).doNothing())
    .returning('backup_id')
    .executeTakeFirst();
  if (inserted) return true;
  const taken = await handle.db
    .updateTable('backup_retention_deletions')
    .set({ operation_id: claim.operationId, claimed_at: claim.now })
    .where('tenant', '=', claim.tenant)
    .where('backup_id', '=', claim.backupId)
    .where('deleted_at', 'is', null)
    .where('operation_id', '!=', claim.operationId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('operations')
            .select('operations.id')
            .whereRef('operations.id', '=', 'backup_retention_deletions.operation_id')
            .where((o) =>
              o.or([
                o('operations.state', '=', 'QUEUED'),
                o.and([
                  o('operations.state', '=', 'RUNNING'),
                  o('operations.lease_expires_at', '>', claim.now),
                ]),
              ]),
            ),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/** Marks claimed backups deleted. */
export async function markDeleted(
  handle: TreeDb,
  claim: Pick<DeletionClaim, 'tenant' | 'operationId' | 'now'> & { backupIds: readonly string[] },
): Promise<void> {
  for (let i = 0; i < claim.backupIds.length; i += 500) {
    await handle.db
      .updateTable('backup_retention_deletions')
      .set({ deleted_at: claim.now })
      .where('tenant', '=', claim.tenant)
      .where('backup_id', 'in', claim.backupIds.slice(i, i + 500))
      .where('operation_id', '=', claim.operationId)
      .execute();
  }
}

/** Drops a claim whose backup was not deleted (refused), so a later apply may try again. */
export async function releaseDeletion(
  handle: TreeDb,
  claim: Pick<DeletionClaim, 'tenant' | 'backupId' | 'operationId'>,
): Promise<void> {
  await handle.db
    .deleteFrom('backup_retention_deletions')
    .where('tenant', '=', claim.tenant)
    .where('backup_id', '=', claim.backupId)
    .where('operation_id', '=', claim.operationId)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Claims many backups for one retention operation in one transaction, in the given order: of two
 * operations claiming the same list at once, the second waits on the first's first row and then
 * finds every row taken, so one of them deletes them all. Rows a dead operation claimed are
 * taken over (claimDeletion). Returns the ids this operation holds.
 */
export async function claimDeletions(
  handle: TreeDb,
  claims: readonly DeletionClaim[],
): Promise<Set<string>> {
  return withTransaction(handle, async (tx) => {
    const held = new Set<string>();
    for (let i = 0; i < claims.length; i += 500) {
      const batch = claims.slice(i, i + 500);
      const rows = await tx.db
        .insertInto('backup_retention_deletions')
        .values(
          batch.map((c) => ({
            tenant: c.tenant,
            backup_id: c.backupId,
            operation_id: c.operationId,
            tree_name: c.scope.treeName,
            key_prefix: c.scope.keyPrefix,
            backup_name: c.backupName,
            byte_size: c.byteSize,
            backup_created_at: c.backupCreatedAt ?? null,
            claimed_at: c.now,
            deleted_at: null,
          })),
        )
        .onConflict((oc) => oc.columns(['tenant', 'backup_id']).doNothing())
        .returning('backup_id')
        .execute();
      for (const r of rows) held.add(r.backup_id);
      for (const c of batch) {
        if (!held.has(c.backupId) && (await claimDeletion(tx, c))) held.add(c.backupId);
      }
    }
    return held;
  });
}

/** Which of these backups some retention operation has claimed and not yet finished deleting. */
export async function claimedForDeletion(
  handle: TreeDb,
  tenant: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await handle.db
    .selectFrom('backup_retention_deletions')
    .select('backup_id')
    .where('tenant', '=', tenant)
    .where('backup_id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.backup_id));
}
