import type { Selectable, Updateable } from 'kysely';
import type { BackupScopesTable } from './schema.js';
import type { TreeDb } from './tree-db.js';

/** SQL of per-tree backup scopes: the full and incremental schedules and the run status. */

export type ScheduleKind = 'full' | 'incremental';

/** A scope row as the engine reads it. */
export interface ScopeRow {
  tenant: string;
  treeName: string;
  fullIntervalMs: number | null;
  fullKeyPrefix: string | null;
  fullNextRunAt: number | null;
  incrementalIntervalMs: number | null;
  incrementalKeyPrefix: string | null;
  incrementalNextRunAt: number | null;
  lastFullRunAt: number | null;
  lastFullSuccessAt: number | null;
  lastIncrementalRunAt: number | null;
  lastIncrementalSuccessAt: number | null;
  lastOutcome: string;
}

const num = (v: number | null) => (v === null ? null : Number(v));

function toRow(r: Selectable<BackupScopesTable>): ScopeRow {
  return {
    tenant: r.tenant,
    treeName: r.tree_name,
    fullIntervalMs: num(r.full_interval_ms),
    fullKeyPrefix: r.full_key_prefix,
    fullNextRunAt: num(r.full_next_run_at),
    incrementalIntervalMs: num(r.incremental_interval_ms),
    incrementalKeyPrefix: r.incremental_key_prefix,
    incrementalNextRunAt: num(r.incremental_next_run_at),
    lastFullRunAt: num(r.last_full_run_at),
    lastFullSuccessAt: num(r.last_full_success_at),
    lastIncrementalRunAt: num(r.last_incremental_run_at),
    lastIncrementalSuccessAt: num(r.last_incremental_success_at),
    lastOutcome: r.last_outcome,
  };
}

/** A scope row with no schedule and no runs yet. */
function emptyScope(tenant: string, treeName: string, now: number) {
  return {
    tenant,
    tree_name: treeName,
    full_interval_ms: null,
    full_key_prefix: null,
    full_next_run_at: null,
    incremental_interval_ms: null,
    incremental_key_prefix: null,
    incremental_next_run_at: null,
    last_full_run_at: null,
    last_full_success_at: null,
    last_incremental_run_at: null,
    last_incremental_success_at: null,
    last_outcome: 'NONE',
    updated_at: now,
  };
}

async function ensureScope(handle: TreeDb, tenant: string, treeName: string, now: number) {
  await handle.db
    .insertInto('backup_scopes')
    .values(emptyScope(tenant, treeName, now))
    .onConflict((oc) => oc.columns(['tenant', 'tree_name']).doNothing())
    .execute();
}

/** The scope row of a tree, or undefined. */
export async function getScope(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<ScopeRow | undefined> {
  const row = await handle.db
    .selectFrom('backup_scopes')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('tree_name', '=', treeName)
    .executeTakeFirst();
  return row && toRow(row);
}

/** Registers (or replaces) a schedule; its first run is one interval from now. */
export async function setSchedule(
  handle: TreeDb,
  s: {
    tenant: string;
    treeName: string;
    kind: ScheduleKind;
    intervalMs: number | null;
    keyPrefix: string | null;
    now: number;
  },
): Promise<void> {
  await ensureScope(handle, s.tenant, s.treeName, s.now);
  const next = s.intervalMs === null ? null : s.now + s.intervalMs;
  const values =
    s.kind === 'full'
      ? { full_interval_ms: s.intervalMs, full_key_prefix: s.keyPrefix, full_next_run_at: next }
      : {
          incremental_interval_ms: s.intervalMs,
          incremental_key_prefix: s.keyPrefix,
          incremental_next_run_at: next,
        };
  await handle.db
    .updateTable('backup_scopes')
    .set({ ...values, updated_at: s.now })
    .where('tenant', '=', s.tenant)
    .where('tree_name', '=', s.treeName)
    .execute();
}

/** A schedule whose run is due. */
export interface DueSchedule {
  tenant: string;
  treeName: string;
  kind: ScheduleKind;
  keyPrefix: string | null;
  intervalMs: number;
  nextRunAt: number;
}

/** Schedules due at `now`, across tenants. */
export async function listDueSchedules(
  handle: TreeDb,
  now: number,
  limit: number,
): Promise<DueSchedule[]> {
  const rows = await handle.db
    .selectFrom('backup_scopes')
    .selectAll()
    .where((eb) =>
      eb.or([eb('full_next_run_at', '<=', now), eb('incremental_next_run_at', '<=', now)]),
    )
    .limit(limit)
    .execute();
  const due: DueSchedule[] = [];
  for (const r of rows.map(toRow)) {
    if (r.fullNextRunAt !== null && r.fullIntervalMs !== null && r.fullNextRunAt <= now) {
      due.push({
        tenant: r.tenant,
        treeName: r.treeName,
        kind: 'full',
        keyPrefix: r.fullKeyPrefix,
        intervalMs: r.fullIntervalMs,
        nextRunAt: r.fullNextRunAt,
      });
    }
    if (
      r.incrementalNextRunAt !== null &&
      r.incrementalIntervalMs !== null &&
      r.incrementalNextRunAt <= now
    ) {
      due.push({
        tenant: r.tenant,
        treeName: r.treeName,
        kind: 'incremental',
        keyPrefix: r.incrementalKeyPrefix,
        intervalMs: r.incrementalIntervalMs,
        nextRunAt: r.incrementalNextRunAt,
      });
    }
  }
  return due;
}

/**
 * Claims a due run with a compare-and-set on next_run_at, so of all replicas exactly one fires
 * it (DESIGN.md §1, schedules fire once cluster-wide).
 */
export async function claimScheduledRun(
  handle: TreeDb,
  due: DueSchedule,
  now: number,
): Promise<boolean> {
  const next = now + due.intervalMs;
  const query = handle.db
    .updateTable('backup_scopes')
    .where('tenant', '=', due.tenant)
    .where('tree_name', '=', due.treeName);
  const result = await (
    due.kind === 'full'
      ? query.set({ full_next_run_at: next }).where('full_next_run_at', '=', due.nextRunAt)
      : query
          .set({ incremental_next_run_at: next })
          .where('incremental_next_run_at', '=', due.nextRunAt)
  ).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Records a capture run of a tree: started, or ended with an outcome. */
export async function recordScopeRun(
  handle: TreeDb,
  run: {
    tenant: string;
    treeName: string;
    kind: ScheduleKind;
    outcome: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'SKIPPED';
    now: number;
  },
): Promise<void> {
  const full = run.kind === 'full';
  const set: Updateable<BackupScopesTable> = { last_outcome: run.outcome, updated_at: run.now };
  if (run.outcome === 'RUNNING' || run.outcome === 'SKIPPED') {
    set[full ? 'last_full_run_at' : 'last_incremental_run_at'] = run.now;
  }
  if (run.outcome === 'SUCCEEDED') {
    set[full ? 'last_full_success_at' : 'last_incremental_success_at'] = run.now;
  }
  // One statement (every capture records its start and its end): the tree's first run
  // inserts the row with this run in it, later ones update it.
  await handle.db
    .insertInto('backup_scopes')
    .values({ ...emptyScope(run.tenant, run.treeName, run.now), ...set })
    .onConflict((oc) => oc.columns(['tenant', 'tree_name']).doUpdateSet(set))
    .execute();
}
