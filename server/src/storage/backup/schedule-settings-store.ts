import {
  emptyScope,
  SCOPE_COLUMNS,
  toRow,
  type ScheduleSettings,
  type ScopeKey,
  type ScopeRow,
} from './backup-scope-store.js';
import { startsWith, type TreeDb } from '../data/tree-db.js';

/**
 * SQL of the schedules overview: a scope's schedule settings (anchor, name template, unchanged
 * incrementals), the tenant's scheduled scopes page by page, and whether a scope changed since
 * a sequence (an unchanged scheduled incremental is skipped).
 */

/** Stores a scope's settings and the next runs they give its registered schedules. */
export async function setScheduleSettings(
  handle: TreeDb,
  s: ScopeKey & {
    settings: ScheduleSettings;
    fullNextRunAt: number | null;
    incrementalNextRunAt: number | null;
    now: number;
  },
): Promise<void> {
  const set = {
    anchor_minute_of_day: s.settings.anchor?.minuteOfDay ?? null,
    anchor_time_zone: s.settings.anchor?.timeZone ?? null,
    name_template: s.settings.nameTemplate,
    capture_unchanged_incrementals: s.settings.captureUnchangedIncrementals ? 1 : 0,
    updated_at: s.now,
  };
  // Only a registered schedule has a next run; the other stays NULL (not registered).
  const next = {
    ...(s.fullNextRunAt !== null && { full_next_run_at: s.fullNextRunAt }),
    ...(s.incrementalNextRunAt !== null && { incremental_next_run_at: s.incrementalNextRunAt }),
  };
  await handle.db
    .insertInto('backup_scopes')
    .values({ ...emptyScope(s, s.now), ...set })
    .onConflict((oc) => oc.columns(SCOPE_COLUMNS).doUpdateSet({ ...set, ...next }))
    .execute();
}

/** A position in the tenant's scopes, after which a page starts. */
export interface ScopeCursor {
  treeName: string;
  keyPrefix: string;
}

/** Scopes of the tenant with a registered schedule, by tree then key prefix (byte order). */
export async function listScheduledScopes(
  handle: TreeDb,
  tenant: string,
  after: ScopeCursor | null,
  limit: number,
): Promise<ScopeRow[]> {
  let query = handle.db
    .selectFrom('backup_scopes')
    .selectAll()
    .where('tenant', '=', tenant)
    .where((eb) =>
      eb.or([
        eb('full_interval_ms', 'is not', null),
        eb('incremental_interval_ms', 'is not', null),
        // A scope with a restore drill plan (migration 0030) is in the overview too.
        eb.exists(
          eb
            .selectFrom('backup_restore_drill_plans as plan')
            .select('plan.name')
            .whereRef('plan.tenant', '=', 'backup_scopes.tenant')
            .whereRef('plan.tree_name', '=', 'backup_scopes.tree_name')
            .whereRef('plan.key_prefix', '=', 'backup_scopes.key_prefix'),
        ),
      ]),
    );
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('tree_name', '>', after.treeName),
        eb.and([eb('tree_name', '=', after.treeName), eb('key_prefix', '>', after.keyPrefix)]),
      ]),
    );
  }
  const rows = await query.orderBy('tree_name').orderBy('key_prefix').limit(limit).execute();
  return rows.map(toRow);
}

/**
 * Whether any entry of the scope (tombstones too) was written after `sequence` in the physical
 * tree: what an incremental on a base captured at that sequence would hold.
 */
export async function scopeChangedSince(
  handle: TreeDb,
  physicalTreeId: string,
  keyPrefix: string,
  sequence: number,
): Promise<boolean> {
  let query = handle.db
    .selectFrom('entries')
    .select('key')
    .where('physical_tree_id', '=', physicalTreeId)
    .where('sequence', '>', sequence);
  if (keyPrefix !== '') query = query.where(startsWith('key', keyPrefix));
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** How many of the scope's backups are protected (retention and DeleteBackup keep them). */
export async function countProtectedOfScope(handle: TreeDb, scope: ScopeKey): Promise<number> {
  const row = await handle.db
    .selectFrom('backup_protections as p')
    .innerJoin('backups as b', (join) =>
      join.onRef('b.tenant', '=', 'p.tenant').onRef('b.id', '=', 'p.backup_id'),
    )
    .select((eb) => eb.fn.countAll().as('count'))
    .where('p.tenant', '=', scope.tenant)
    .where('b.tree_name', '=', scope.treeName)
    .$if(scope.keyPrefix === '', (qb) => qb.where('b.key_prefix', 'is', null))
    .$if(scope.keyPrefix !== '', (qb) => qb.where('b.key_prefix', '=', scope.keyPrefix))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
