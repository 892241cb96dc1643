import type { Selectable } from 'kysely';
import { withTransaction, type TreeDb } from '../../data/tree-db.js';
import { emptyScope, SCOPE_COLUMNS } from '../backup-scope-store.js';

/** SQL of restore drill plans (migration 0030) and the catalog reads their runs pick from. */

export interface BackupRestoreDrillPlansTable {
  tenant: string;
  tree_name: string;
  key_prefix: string;
  name: string;
  interval_ms: number | null;
  anchor_minute_of_day: number | null;
  anchor_time_zone: string | null;
  /** NEWEST, RANDOM_WITHIN_WINDOW or EACH_NEW_FULL. */
  choice: string;
  window_ms: number | null;
  max_entries_per_second: number;
  paused: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_operation_id: string | null;
  last_backup_id: string | null;
  last_backup_created_at: number | null;
  /** STARTED or SKIPPED; null before the first run. */
  last_outcome: string | null;
  last_reason: string | null;
  last_started_by: string | null;
  created_at: number;
  updated_at: number;
}

declare module '../../database-schema.js' {
  interface Database {
    backup_restore_drill_plans: BackupRestoreDrillPlansTable;
  }
}

export type DrillPlanChoice = 'NEWEST' | 'RANDOM_WITHIN_WINDOW' | 'EACH_NEW_FULL';

export interface DrillPlanKey {
  tenant: string;
  treeName: string;
  keyPrefix: string;
  name: string;
}

/** What an operator sets. */
export interface DrillPlanSettings {
  intervalMs: number | null;
  anchor: { minuteOfDay: number; timeZone: string } | null;
  choice: DrillPlanChoice;
  windowMs: number | null;
  maxEntriesPerSecond: number;
  paused: boolean;
}

export interface StoredDrillPlan extends DrillPlanKey, DrillPlanSettings {
  nextRunAt: number | null;
  lastRun: {
    at: number;
    operationId: string | null;
    outcome: 'STARTED' | 'SKIPPED';
    reason: string;
    startedBy: string;
  } | null;
  /** The backup the plan last drilled (kept across skipped runs), with its capture time. */
  lastBackup: { id: string; createdAt: number } | null;
  updatedAt: number;
}

function toPlan(row: Selectable<BackupRestoreDrillPlansTable>): StoredDrillPlan {
  return {
    tenant: row.tenant,
    treeName: row.tree_name,
    keyPrefix: row.key_prefix,
    name: row.name,
    intervalMs: row.interval_ms === null ? null : Number(row.interval_ms),
    anchor:
      row.anchor_minute_of_day === null || row.anchor_time_zone === null
        ? null
        : { minuteOfDay: Number(row.anchor_minute_of_day), timeZone: row.anchor_time_zone },
    choice: row.choice as DrillPlanChoice,
    windowMs: row.window_ms === null ? null : Number(row.window_ms),
    maxEntriesPerSecond: Number(row.max_entries_per_second),
    paused: Number(row.paused) === 1,
    nextRunAt: row.next_run_at === null ? null : Number(row.next_run_at),
    lastRun:
      row.last_run_at === null
        ? null
        : {
            at: Number(row.last_run_at),
            operationId: row.last_operation_id,
            outcome: row.last_outcome === 'SKIPPED' ? 'SKIPPED' : 'STARTED',
            reason: row.last_reason ?? '',
            startedBy: row.last_started_by ?? '',
          },
    lastBackup:
      row.last_backup_id === null
        ? null
        : { id: row.last_backup_id, createdAt: Number(row.last_backup_created_at ?? 0) },
    updatedAt: Number(row.updated_at),
  };
}

const byKey = (key: DrillPlanKey) => ({
  tenant: key.tenant,
  tree_name: key.treeName,
  key_prefix: key.keyPrefix,
  name: key.name,
});

/**
 * Creates the plan or replaces its settings; its run history stays. `nextRunAt` undefined keeps
 * the stored next run (the cadence did not change), null clears it (on demand or paused).
 */
export async function upsertDrillPlan(
  handle: TreeDb,
  plan: DrillPlanKey & DrillPlanSettings & { nextRunAt: number | null | undefined; now: number },
): Promise<void> {
  const settings = {
    interval_ms: plan.intervalMs,
    anchor_minute_of_day: plan.anchor?.minuteOfDay ?? null,
    anchor_time_zone: plan.anchor?.timeZone ?? null,
    choice: plan.choice,
    window_ms: plan.windowMs,
    max_entries_per_second: plan.maxEntriesPerSecond,
    paused: plan.paused ? 1 : 0,
    updated_at: plan.now,
  };
  await withTransaction(handle, async (tx) => {
    // The scope's row, so the schedules overview (which lists scope rows) names the plan.
    await tx.db
      .insertInto('backup_scopes')
      .values(emptyScope(plan, plan.now))
      .onConflict((oc) => oc.columns(SCOPE_COLUMNS).doNothing())
      .execute();
    await tx.db
      .insertInto('backup_restore_drill_plans')
      .values({
        ...byKey(plan),
        ...settings,
        next_run_at: plan.nextRunAt ?? null,
        last_run_at: null,
        last_operation_id: null,
        last_backup_id: null,
        last_backup_created_at: null,
        last_outcome: null,
        last_reason: null,
        last_started_by: null,
        created_at: plan.now,
      })
      .onConflict((oc) =>
        oc.columns(['tenant', 'tree_name', 'key_prefix', 'name']).doUpdateSet({
          ...settings,
          ...(plan.nextRunAt !== undefined && { next_run_at: plan.nextRunAt }),
        }),
      )
      .execute();
  });
}

export async function getDrillPlan(
  handle: TreeDb,
  key: DrillPlanKey,
): Promise<StoredDrillPlan | undefined> {
  const row = await handle.db
    .selectFrom('backup_restore_drill_plans')
    .selectAll()
    .where('tenant', '=', key.tenant)
    .where('tree_name', '=', key.treeName)
    .where('key_prefix', '=', key.keyPrefix)
    .where('name', '=', key.name)
    .executeTakeFirst();
  return row && toPlan(row);
}

export interface DrillPlanCursor {
  treeName: string;
  keyPrefix: string;
  name: string;
}

/** A tenant's plans (or one scope's) by tree, prefix, name; a page continues after `after`. */
export async function listDrillPlans(
  handle: TreeDb,
  tenant: string,
  options: {
    scope?: { treeName: string; keyPrefix: string } | undefined;
    after?: DrillPlanCursor | null | undefined;
    limit: number;
  },
): Promise<StoredDrillPlan[]> {
  const { scope, after } = options;
  const rows = await handle.db
    .selectFrom('backup_restore_drill_plans')
    .selectAll()
    .where('tenant', '=', tenant)
    .$if(scope !== undefined, (qb) =>
      qb
        .where('tree_name', '=', scope?.treeName ?? '')
        .where('key_prefix', '=', scope?.keyPrefix ?? ''),
    )
    .$if(after != null, (qb) =>
      qb.where((eb) =>
        eb.or([
          eb('tree_name', '>', after?.treeName ?? ''),
          eb.and([
            eb('tree_name', '=', after?.treeName ?? ''),
            eb.or([
              eb('key_prefix', '>', after?.keyPrefix ?? ''),
              eb.and([
                eb('key_prefix', '=', after?.keyPrefix ?? ''),
                eb('name', '>', after?.name ?? ''),
              ]),
            ]),
          ]),
        ]),
      ),
    )
    .orderBy('tree_name')
    .orderBy('key_prefix')
    .orderBy('name')
    .limit(options.limit)
    .execute();
  return rows.map(toPlan);
}

export async function deleteDrillPlan(handle: TreeDb, key: DrillPlanKey): Promise<boolean> {
  const result = await handle.db
    .deleteFrom('backup_restore_drill_plans')
    .where('tenant', '=', key.tenant)
    .where('tree_name', '=', key.treeName)
    .where('key_prefix', '=', key.keyPrefix)
    .where('name', '=', key.name)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Plans of every tenant whose next run is due (not paused), earliest first. */
export async function listDueDrillPlans(
  handle: TreeDb,
  now: number,
  limit: number,
): Promise<StoredDrillPlan[]> {
  const rows = await handle.db
    .selectFrom('backup_restore_drill_plans')
    .selectAll()
    .where('next_run_at', 'is not', null)
    .where('next_run_at', '<=', now)
    .where('paused', '=', 0)
    .orderBy('next_run_at')
    .limit(limit)
    .execute();
  return rows.map(toPlan);
}

/**
 * Claims a due run: moves next_run_at from what this replica read to `next`. Only one of the
 * replicas that read the same due run can win it, so exactly one fires it.
 */
export async function claimDrillPlanRun(
  handle: TreeDb,
  due: DrillPlanKey & { nextRunAt: number },
  next: number,
): Promise<boolean> {
  const result = await handle.db
    .updateTable('backup_restore_drill_plans')
    .set({ next_run_at: next })
    .where('tenant', '=', due.tenant)
    .where('tree_name', '=', due.treeName)
    .where('key_prefix', '=', due.keyPrefix)
    .where('name', '=', due.name)
    .where('next_run_at', '=', due.nextRunAt)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Records a run; a skipped one keeps the last drilled backup (EACH_NEW_FULL compares with it). */
export async function recordDrillPlanRun(
  handle: TreeDb,
  key: DrillPlanKey,
  run: {
    at: number;
    outcome: 'STARTED' | 'SKIPPED';
    reason: string;
    startedBy: string;
    operationId: string | null;
    backup: { id: string; createdAt: number } | null;
  },
): Promise<void> {
  await handle.db
    .updateTable('backup_restore_drill_plans')
    .set({
      last_run_at: run.at,
      last_outcome: run.outcome,
      last_reason: run.reason,
      last_started_by: run.startedBy,
      last_operation_id: run.operationId,
      ...(run.backup && {
        last_backup_id: run.backup.id,
        last_backup_created_at: run.backup.createdAt,
      }),
    })
    .where('tenant', '=', key.tenant)
    .where('tree_name', '=', key.treeName)
    .where('key_prefix', '=', key.keyPrefix)
    .where('name', '=', key.name)
    .execute();
}

/** Drills a plan started that the drill history keeps (its drills' started_by is `startedBy`). */
export async function countDrillsStartedBy(
  handle: TreeDb,
  scope: { tenant: string; treeName: string; keyPrefix: string },
  startedBy: string,
): Promise<number> {
  const row = await handle.db
    .selectFrom('backup_restore_drills')
    .select((eb) => eb.fn.count<number>('operation_id').distinct().as('n'))
    .where('tenant', '=', scope.tenant)
    .where('tree_name', '=', scope.treeName)
    .where('key_prefix', '=', scope.keyPrefix)
    .where('started_by', '=', startedBy)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A backup a plan may drill. */
export interface PlanCandidate {
  id: string;
  name: string;
  kind: string;
  createdAt: number;
}

/**
 * The scope's backups (a whole tree's have no key prefix), oldest first by (created_at, id) so a
 * seeded draw over them is repeatable; optionally only fulls, only those captured after a time,
 * only the `newest` few (still oldest first).
 */
export async function listScopeBackups(
  handle: TreeDb,
  scope: { tenant: string; treeName: string; keyPrefix: string },
  filter: { kind?: 'FULL'; createdAfter?: number; createdAtLeast?: number; newest?: number },
): Promise<PlanCandidate[]> {
  const newestFirst = filter.newest !== undefined;
  const rows = await handle.db
    .selectFrom('backups')
    .select(['id', 'name', 'kind', 'created_at'])
    .where('tenant', '=', scope.tenant)
    .where('tree_name', '=', scope.treeName)
    .$if(scope.keyPrefix === '', (qb) => qb.where('key_prefix', 'is', null))
    .$if(scope.keyPrefix !== '', (qb) => qb.where('key_prefix', '=', scope.keyPrefix))
    .$if(filter.kind !== undefined, (qb) => qb.where('kind', '=', filter.kind ?? ''))
    .$if(filter.createdAfter !== undefined, (qb) =>
      qb.where('created_at', '>', filter.createdAfter ?? 0),
    )
    .$if(filter.createdAtLeast !== undefined, (qb) =>
      qb.where('created_at', '>=', filter.createdAtLeast ?? 0),
    )
    .orderBy('created_at', newestFirst ? 'desc' : 'asc')
    .orderBy('id', newestFirst ? 'desc' : 'asc')
    .$if(newestFirst, (qb) => qb.limit(filter.newest ?? 1))
    .execute();
  if (newestFirst) rows.reverse();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    kind: r.kind,
    createdAt: Number(r.created_at),
  }));
}
