import { sql } from 'kysely';
import type { TreeDb } from '../../data/tree-db.js';
import type { ScopeKey } from '../backup-scope-store.js';

/**
 * SQL of the backup lifecycle (migration 0016): the tables, and retention rules per scope. A
 * scope's backups as retention reads them: retention-catalog-store.ts; protections:
 * backup-protection-store.ts; deletion claims: retention-claim-store.ts.
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
  /** When the backup was created (migration 0018); null in records made before it. */
  backup_created_at: number | null;
  claimed_at: number;
  /** Null while the deletion is claimed but not done. */
  deleted_at: number | null;
}

// The lifecycle tables are declared beside their SQL and merged into the database's type.
declare module '../../database-schema.js' {
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
