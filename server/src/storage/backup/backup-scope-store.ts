import type { Selectable, Updateable } from 'kysely';
import type { BackupScopesTable } from '../database-schema.js';
import type { TreeDb } from '../data/tree-db.js';

/**
 * SQL of backup scopes: per scope (tree + key prefix, '' for the whole tree) its full and
 * incremental schedules and its run status. Two prefixes of one tree are two scopes.
 */

export type ScheduleKind = 'full' | 'incremental';

/** A scope: a tenant's tree and a key prefix ('' for the whole tree). */
export interface ScopeKey {
  tenant: string;
  treeName: string;
  keyPrefix: string;
}

/** A time-of-day anchor: minutes after local midnight in an IANA zone. */
export interface StoredAnchor {
  minuteOfDay: number;
  timeZone: string;
}

/** The settings of a scope's schedules beyond the spec's interval. */
export interface ScheduleSettings {
  anchor: StoredAnchor | null;
  /** null: the default template. */
  nameTemplate: string | null;
  /** An unchanged scheduled incremental still writes a backup (the behaviour before). */
  captureUnchangedIncrementals: boolean;
}

/** A scope row as the engine reads it. */
export interface ScopeRow extends ScopeKey, ScheduleSettings {
  fullIntervalMs: number | null;
  fullNextRunAt: number | null;
  incrementalIntervalMs: number | null;
  incrementalNextRunAt: number | null;
  lastFullRunAt: number | null;
  lastFullSuccessAt: number | null;
  lastIncrementalRunAt: number | null;
  lastIncrementalSuccessAt: number | null;
  lastOutcome: string;
  /** Why the last run was skipped; null otherwise. */
  lastRunReason: string | null;
}

const num = (v: number | null) => (v === null ? null : Number(v));

/** Maps a backup_scopes row. */
export function toRow(r: Selectable<BackupScopesTable>): ScopeRow {
  return {
    tenant: r.tenant,
    treeName: r.tree_name,
    keyPrefix: r.key_prefix,
    fullIntervalMs: num(r.full_interval_ms),
    fullNextRunAt: num(r.full_next_run_at),
    incrementalIntervalMs: num(r.incremental_interval_ms),
    incrementalNextRunAt: num(r.incremental_next_run_at),
    lastFullRunAt: num(r.last_full_run_at),
    lastFullSuccessAt: num(r.last_full_success_at),
    lastIncrementalRunAt: num(r.last_incremental_run_at),
    lastIncrementalSuccessAt: num(r.last_incremental_success_at),
    lastOutcome: r.last_outcome,
    lastRunReason: r.last_run_reason,
    anchor:
      r.anchor_minute_of_day === null || r.anchor_time_zone === null
        ? null
        : { minuteOfDay: Number(r.anchor_minute_of_day), timeZone: r.anchor_time_zone },
    nameTemplate: r.name_template,
    captureUnchangedIncrementals: Number(r.capture_unchanged_incrementals) !== 0,
  };
}

/** A scope row with no schedule and no runs yet. */
export function emptyScope(scope: ScopeKey, now: number) {
  return {
    tenant: scope.tenant,
    tree_name: scope.treeName,
    key_prefix: scope.keyPrefix,
    full_interval_ms: null,
    full_next_run_at: null,
    incremental_interval_ms: null,
    incremental_next_run_at: null,
    last_full_run_at: null,
    last_full_success_at: null,
    last_incremental_run_at: null,
    last_incremental_success_at: null,
    last_outcome: 'NONE',
    updated_at: now,
  };
}

export const SCOPE_COLUMNS = ['tenant', 'tree_name', 'key_prefix'] as const;

/** The row of a scope, or undefined. */
export async function getScope(handle: TreeDb, scope: ScopeKey): Promise<ScopeRow | undefined> {
  const row = await handle.db
    .selectFrom('backup_scopes')
    .selectAll()
    .where('tenant', '=', scope.tenant)
    .where('tree_name', '=', scope.treeName)
    .where('key_prefix', '=', scope.keyPrefix)
    .executeTakeFirst();
  return row && toRow(row);
}

function scheduleColumns(kind: ScheduleKind, intervalMs: number | null, next: number | null) {
  return kind === 'full'
    ? { full_interval_ms: intervalMs, full_next_run_at: next }
    : { incremental_interval_ms: intervalMs, incremental_next_run_at: next };
}

/** Registers (or replaces) a scope's schedule with its first run (see next-runs.ts). */
export async function setSchedule(
  handle: TreeDb,
  s: ScopeKey & { kind: ScheduleKind; intervalMs: number; firstRunAt: number; now: number },
): Promise<void> {
  const set = { ...scheduleColumns(s.kind, s.intervalMs, s.firstRunAt), updated_at: s.now };
  await handle.db
    .insertInto('backup_scopes')
    .values({ ...emptyScope(s, s.now), ...set })
    .onConflict((oc) => oc.columns(SCOPE_COLUMNS).doUpdateSet(set))
    .execute();
}

/** Removes a scope's schedule of one kind (its run status stays); idempotent. */
export async function clearSchedule(
  handle: TreeDb,
  s: ScopeKey & { kind: ScheduleKind; now: number },
): Promise<void> {
  await handle.db
    .updateTable('backup_scopes')
    .set({ ...scheduleColumns(s.kind, null, null), updated_at: s.now })
    .where('tenant', '=', s.tenant)
    .where('tree_name', '=', s.treeName)
    .where('key_prefix', '=', s.keyPrefix)
    .execute();
}

/** A schedule whose run is due, with its scope's settings. */
export interface DueSchedule extends ScopeKey {
  kind: ScheduleKind;
  intervalMs: number;
  nextRunAt: number;
  settings: ScheduleSettings;
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
    const scope = {
      tenant: r.tenant,
      treeName: r.treeName,
      keyPrefix: r.keyPrefix,
      settings: {
        anchor: r.anchor,
        nameTemplate: r.nameTemplate,
        captureUnchangedIncrementals: r.captureUnchangedIncrementals,
      },
    };
    if (r.fullNextRunAt !== null && r.fullIntervalMs !== null && r.fullNextRunAt <= now) {
      due.push({
        ...scope,
        kind: 'full',
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
        ...scope,
        kind: 'incremental',
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
  next: number,
): Promise<boolean> {
  const query = handle.db
    .updateTable('backup_scopes')
    .where('tenant', '=', due.tenant)
    .where('tree_name', '=', due.treeName)
    .where('key_prefix', '=', due.keyPrefix);
  const result = await (
    due.kind === 'full'
      ? query.set({ full_next_run_at: next }).where('full_next_run_at', '=', due.nextRunAt)
      : query
          .set({ incremental_next_run_at: next })
          .where('incremental_next_run_at', '=', due.nextRunAt)
  ).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The key prefixes ('' for the whole tree) of the tree's single-scope captures still queued or
 * running: the scheduler skips a scope's run only while a capture of that same scope is active.
 */
export async function activeCapturePrefixes(
  handle: TreeDb,
  tenant: string,
  treeName: string,
): Promise<Set<string>> {
  const rows = await handle.db
    .selectFrom('operations')
    .select('request_json')
    .where('tenant', '=', tenant)
    .where('target_id', '=', treeName)
    .where('kind', 'in', ['BACKUP', 'INCREMENTAL_BACKUP'])
    .where('state', 'in', ['QUEUED', 'RUNNING'])
    .execute();
  return new Set(
    rows.map(
      (r) =>
        (JSON.parse(r.request_json) as { scope?: { keyPrefix?: string } }).scope?.keyPrefix ?? '',
    ),
  );
}

/** Records a capture run of a scope: started, or ended with an outcome. */
export async function recordScopeRun(
  handle: TreeDb,
  run: ScopeKey & {
    kind: ScheduleKind;
    outcome: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'SKIPPED';
    now: number;
    /** Why a run was skipped ("no change since …"), shown by the schedules overview. */
    reason?: string | undefined;
  },
): Promise<void> {
  const full = run.kind === 'full';
  const set: Updateable<BackupScopesTable> = {
    last_outcome: run.outcome,
    last_run_reason: run.outcome === 'SKIPPED' ? (run.reason ?? null) : null,
    updated_at: run.now,
  };
  if (run.outcome === 'RUNNING' || run.outcome === 'SKIPPED') {
    set[full ? 'last_full_run_at' : 'last_incremental_run_at'] = run.now;
  }
  if (run.outcome === 'SUCCEEDED') {
    set[full ? 'last_full_success_at' : 'last_incremental_success_at'] = run.now;
  }
  // One statement (every capture records its start and its end): the scope's first run
  // inserts the row with this run in it, later ones update it.
  await handle.db
    .insertInto('backup_scopes')
    .values({ ...emptyScope(run, run.now), ...set })
    .onConflict((oc) => oc.columns(SCOPE_COLUMNS).doUpdateSet(set))
    .execute();
}
