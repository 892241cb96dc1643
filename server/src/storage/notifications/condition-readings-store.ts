import type { TreeDb } from '../data/tree-db.js';
import { readLastProven } from '../backup/drills/drill-proof-readings-store.js';
import { pendingLetter } from '../schema/dead-letter-pending.js';

const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

export interface ScheduledScopeReading {
  tenant: string;
  treeName: string;
  /** The shorter of the scope's full and incremental cadences (over its key prefixes). */
  cadenceMs: number;
  /** End of the newest full or incremental backup of the tree; null: none yet. */
  lastSuccessAt: number | null;
  /** When its schedule was last set: where "overdue" counts from while no backup succeeded. */
  scheduledSince: number;
}

/** Scheduled scopes (as the metrics label them: per tree) with their newest success. */
export async function readScheduledScopes(
  handle: TreeDb,
  tenant?: string,
): Promise<ScheduledScopeReading[]> {
  const schedules = await handle.db
    .selectFrom('backup_scopes')
    .where((eb) =>
      eb.or([
        eb('full_interval_ms', 'is not', null),
        eb('incremental_interval_ms', 'is not', null),
      ]),
    )
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .groupBy(['tenant', 'tree_name'])
    .select((eb) => [
      'tenant',
      'tree_name',
      eb.fn.min('full_interval_ms').as('full_interval'),
      eb.fn.min('incremental_interval_ms').as('incremental_interval'),
      eb.fn.min('updated_at').as('since'),
    ])
    .limit(10_000)
    .execute();
  if (schedules.length === 0) return [];
  const successes = await handle.db
    .selectFrom('backups')
    .where('kind', 'in', ['FULL', 'INCREMENTAL'])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .groupBy(['tenant', 'tree_name'])
    .select((eb) => ['tenant', 'tree_name', eb.fn.max('completed_at').as('last_success')])
    .execute();
  const key = (t: string, tree: string) => JSON.stringify([t, tree]);
  const successOf = new Map(successes.map((r) => [key(r.tenant, r.tree_name), r.last_success]));
  return schedules.flatMap((s) => {
    const cadences = [numOrNull(s.full_interval), numOrNull(s.incremental_interval)].filter(
      (c): c is number => c !== null && c > 0,
    );
    if (cadences.length === 0) return [];
    return [
      {
        tenant: s.tenant,
        treeName: s.tree_name,
        cadenceMs: Math.min(...cadences),
        lastSuccessAt: numOrNull(successOf.get(key(s.tenant, s.tree_name))),
        scheduledSince: Number(s.since),
      },
    ];
  });
}

/** A schedule whose due run has not started: the scheduler is behind by `now − dueAt`. */
export interface LateScheduleReading {
  treeName: string;
  kind: 'full' | 'incremental';
  dueAt: number;
}

/**
 * Schedules of `tenant` whose next run was due before `dueBefore` and has not started (the
 * scheduler moves `*_next_run_at` on when it starts a due run), the longest overdue first.
 */
export async function readLateSchedules(
  handle: TreeDb,
  tenant: string,
  dueBefore: number,
): Promise<LateScheduleReading[]> {
  const rows = await handle.db
    .selectFrom('backup_scopes')
    .select(['tree_name', 'full_next_run_at', 'incremental_next_run_at'])
    .where('tenant', '=', tenant)
    .where((eb) =>
      eb.or([
        eb.and([eb('full_interval_ms', 'is not', null), eb('full_next_run_at', '<', dueBefore)]),
        eb.and([
          eb('incremental_interval_ms', 'is not', null),
          eb('incremental_next_run_at', '<', dueBefore),
        ]),
      ]),
    )
    .limit(1000)
    .execute();
  const late: LateScheduleReading[] = [];
  for (const r of rows) {
    for (const [kind, due] of [
      ['full', numOrNull(r.full_next_run_at)],
      ['incremental', numOrNull(r.incremental_next_run_at)],
    ] as const) {
      if (due !== null && due < dueBefore) late.push({ treeName: r.tree_name, kind, dueAt: due });
    }
  }
  return late.sort((a, b) => a.dueAt - b.dueAt);
}

/**
 * Backups a health check found damaged, per tenant (or of one tenant): the metrics' "corrupt"
 * (CORRUPT, DEGRADED) and "missing", which StoreBackupCorrupt fires on.
 */
export async function readDamagedBackups(handle: TreeDb, tenant?: string) {
  return handle.db
    .selectFrom('backups')
    .select(['tenant', 'id', 'tree_name', 'last_health_status', 'health_damaged_since'])
    .where('last_health_status', 'in', ['CORRUPT', 'DEGRADED', 'MISSING'])
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .limit(1000)
    .execute();
}

/** Pending dead letters per tree (or of one tenant's trees) with at least `min`. */
export async function readDeadLetterPiles(handle: TreeDb, min: number, tenant?: string) {
  const rows = await handle.db
    .selectFrom('schema_dead_letters')
    .where(pendingLetter)
    .$if(tenant !== undefined, (q) => q.where('tenant', '=', tenant!))
    .groupBy(['tenant', 'tree_name'])
    .select((eb) => ['tenant', 'tree_name', eb.fn.countAll<number | string>().as('pending')])
    .execute();
  return rows
    .map((r) => ({ tenant: r.tenant, treeName: r.tree_name, pending: Number(r.pending) }))
    .filter((r) => r.pending >= min);
}

/** A tree with backups, and when a drill last proved one of them (null: never). */
export interface ProofReading {
  treeName: string;
  /** End of the tree's oldest backup in the catalog. */
  oldestBackupAt: number;
  lastProvenAt: number | null;
}

/**
 * The trees of `tenant` that have backups, with their oldest backup and newest PROVEN drill: the
 * StoreScopeNotProven rule's inputs (store_backup_oldest_timestamp_seconds and
 * store_drill_last_proven_timestamp_seconds), from the same two index-only grouped reads.
 */
export async function readScopeProofs(handle: TreeDb, tenant: string): Promise<ProofReading[]> {
  const [trees, proven] = await Promise.all([
    handle.db
      .selectFrom('backups')
      .where('tenant', '=', tenant)
      .groupBy('tree_name')
      .select((eb) => ['tree_name', eb.fn.min('completed_at').as('oldest')])
      .limit(10_000)
      .execute(),
    readLastProven(handle, tenant),
  ]);
  const provenAt = new Map(proven.map((p) => [p.treeName, p.lastProvenAt]));
  return trees.map((t) => ({
    treeName: t.tree_name,
    oldestBackupAt: Number(t.oldest),
    lastProvenAt: provenAt.get(t.tree_name) ?? null,
  }));
}
