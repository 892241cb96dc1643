import { sql } from 'kysely';
import { withTransaction, type TreeDb } from './tree-db.js';
import type { ScopeKey } from './backup-scope-store.js';

/**
 * SQL of the backup lifecycle (migration 0016): retention rules per scope, protections per
 * backup, and retention's deletion claims.
 */

export interface BackupRetentionRulesTable {
  tenant: string;
  tree_name: string;
  key_prefix: string;
  keep_last: number;
  keep_hourly: number;
  keep_daily: number;
  keep_weekly: number;
  keep_monthly: number;
  keep_yearly: number;
  keep_within_ms: number;
  time_zone: string;
  /** 1: retention runs after each scheduled capture of the scope. */
  apply_after_schedule: number;
  updated_at: number;
  updated_by: string;
}

export interface BackupProtectionsTable {
  tenant: string;
  backup_id: string;
  protected_by: string;
  protected_at: number;
  reason: string;
}

export interface BackupRetentionDeletionsTable {
  tenant: string;
  backup_id: string;
  /** The retention operation that claimed (and deletes) the backup. */
  operation_id: string;
  tree_name: string;
  key_prefix: string;
  backup_name: string;
  byte_size: number;
  claimed_at: number;
  /** Null while the deletion is claimed but not done. */
  deleted_at: number | null;
}

// The lifecycle tables are declared beside their SQL and merged into the database's type.
declare module './schema.js' {
  interface Database {
    backup_retention_rules: BackupRetentionRulesTable;
    backup_protections: BackupProtectionsTable;
    backup_retention_deletions: BackupRetentionDeletionsTable;
  }
}

/** Stored rules of a scope. */
export interface StoredRetentionRules {
  keepLast: number;
  keepHourly: number;
  keepDaily: number;
  keepWeekly: number;
  keepMonthly: number;
  keepYearly: number;
  keepWithinMs: number;
  timeZone: string;
  applyAfterSchedule: boolean;
  updatedAt: number;
  updatedBy: string;
}

/** A protection as stored. */
export interface Protection {
  backupId: string;
  protectedBy: string;
  protectedAt: number;
  reason: string;
}

/** One backup of a scope as retention reads it. */
export interface ScopeBackupRow {
  id: string;
  name: string;
  createdAt: number;
  baseBackupId: string | null;
  setId: string | null;
  byteSize: number;
  protection: Protection | undefined;
}

/** The rules of a scope, or undefined when none were ever set. */
export async function getRetentionRules(
  handle: TreeDb,
  scope: ScopeKey,
): Promise<StoredRetentionRules | undefined> {
  const r = await handle.db
    .selectFrom('backup_retention_rules')
    .selectAll()
    .where('tenant', '=', scope.tenant)
    .where('tree_name', '=', scope.treeName)
    .where('key_prefix', '=', scope.keyPrefix)
    .executeTakeFirst();
  if (!r) return undefined;
  return {
    keepLast: Number(r.keep_last),
    keepHourly: Number(r.keep_hourly),
    keepDaily: Number(r.keep_daily),
    keepWeekly: Number(r.keep_weekly),
    keepMonthly: Number(r.keep_monthly),
    keepYearly: Number(r.keep_yearly),
    keepWithinMs: Number(r.keep_within_ms),
    timeZone: r.time_zone,
    applyAfterSchedule: Number(r.apply_after_schedule) !== 0,
    updatedAt: Number(r.updated_at),
    updatedBy: r.updated_by,
  };
}

/** Sets (inserts or replaces) the rules of a scope. */
export async function putRetentionRules(
  handle: TreeDb,
  scope: ScopeKey,
  rules: StoredRetentionRules,
): Promise<void> {
  const values = {
    keep_last: rules.keepLast,
    keep_hourly: rules.keepHourly,
    keep_daily: rules.keepDaily,
    keep_weekly: rules.keepWeekly,
    keep_monthly: rules.keepMonthly,
    keep_yearly: rules.keepYearly,
    keep_within_ms: rules.keepWithinMs,
    time_zone: rules.timeZone,
    apply_after_schedule: rules.applyAfterSchedule ? 1 : 0,
    updated_at: rules.updatedAt,
    updated_by: rules.updatedBy,
  };
  await handle.db
    .insertInto('backup_retention_rules')
    .values({
      tenant: scope.tenant,
      tree_name: scope.treeName,
      key_prefix: scope.keyPrefix,
      ...values,
    })
    .onConflict((oc) => oc.columns(['tenant', 'tree_name', 'key_prefix']).doUpdateSet(values))
    .execute();
}

/** The byte size recorded in a catalog row's manifest, read by the database. */
function manifestByteSize(handle: TreeDb) {
  return handle.dialect === 'postgres'
    ? sql<number>`coalesce((backups.manifest_json::json->>'byteSize')::bigint, 0)`
    : sql<number>`coalesce(json_extract(backups.manifest_json, '$.byteSize'), 0)`;
}

/**
 * Every backup of a scope (its tree, and exactly its key prefix: '' is the whole tree), newest
 * first (ties by id), with its protection. One query, no manifest parsing in JS: a scope may hold 100 000 backups.
 */
export async function listScopeBackups(handle: TreeDb, scope: ScopeKey): Promise<ScopeBackupRow[]> {
  const rows = await handle.db
    .selectFrom('backups')
    .leftJoin('backup_protections as p', (join) =>
      join.onRef('p.tenant', '=', 'backups.tenant').onRef('p.backup_id', '=', 'backups.id'),
    )
    .select([
      'backups.id',
      'backups.name',
      'backups.created_at',
      'backups.base_backup_id',
      'backups.set_id',
      manifestByteSize(handle).as('byte_size'),
      'p.protected_by',
      'p.protected_at',
      'p.reason',
    ])
    .where('backups.tenant', '=', scope.tenant)
    .where('backups.tree_name', '=', scope.treeName)
    .where(sql<string>`coalesce(backups.key_prefix, '')`, '=', scope.keyPrefix)
    // Newest first, as retention walks them: the plan's own sort then finds them in order.
    .orderBy('backups.created_at', 'desc')
    .orderBy('backups.id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: Number(r.created_at),
    baseBackupId: r.base_backup_id,
    setId: r.set_id,
    byteSize: Number(r.byte_size),
    protection:
      r.protected_by === null
        ? undefined
        : {
            backupId: r.id,
            protectedBy: r.protected_by,
            protectedAt: Number(r.protected_at),
            reason: r.reason ?? '',
          },
  }));
}

/** The scopes (other than `except`) holding members of these sets. */
export async function scopesOfSets(
  handle: TreeDb,
  tenant: string,
  setIds: readonly string[],
  except: ScopeKey,
): Promise<ScopeKey[]> {
  if (setIds.length === 0) return [];
  const rows = await handle.db
    .selectFrom('backups')
    .select(['tree_name', sql<string>`coalesce(key_prefix, '')`.as('prefix')])
    .distinct()
    .where('tenant', '=', tenant)
    .where('set_id', 'in', setIds)
    .execute();
  return rows
    .map((r) => ({ tenant, treeName: r.tree_name, keyPrefix: r.prefix }))
    .filter((s) => s.treeName !== except.treeName || s.keyPrefix !== except.keyPrefix);
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

/** What a deletion claim records of its backup. */
export interface DeletionClaim {
  tenant: string;
  backupId: string;
  operationId: string;
  scope: ScopeKey;
  backupName: string;
  byteSize: number;
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
