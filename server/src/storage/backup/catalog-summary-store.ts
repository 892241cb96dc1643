import { sql, type Expression, type SqlBool } from 'kysely';
import type { Storage } from '../database.js';

/** SQL of the catalog summary: every number is a GROUP BY aggregate, never a catalog listing. */

/** One tree's backups, aggregated. */
export interface TreeBackupAggregate {
  treeName: string;
  backupCount: number;
  storedBytes: number;
  newestCreatedAt: number | null;
  neverVerified: number;
  verifiedStale: number;
  healthy: number;
  degraded: number;
  corrupt: number;
  missing: number;
  oldestVerifiedAt: number | null;
}

/** One tree's schedules, aggregated over its scopes. */
export interface TreeScheduleAggregate {
  treeName: string;
  /** The shortest registered full or incremental interval; null when nothing is scheduled. */
  shortestIntervalMs: number | null;
  /** The newest scheduled success, full or incremental. */
  lastScheduledSuccessAt: number | null;
}

const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);

const countWhen = (condition: Expression<SqlBool>) =>
  sql<number>`sum(case when ${condition} then 1 else 0 end)`;

/** Per tree of `tenant`: backup count, bytes, newest backup and verification counts. */
export async function aggregateBackupsByTree(
  storage: Storage,
  tenant: string,
  staleBefore: number,
): Promise<TreeBackupAggregate[]> {
  const rows = await storage.db
    .selectFrom('backups')
    .where('tenant', '=', tenant)
    .groupBy('tree_name')
    .select((eb) => [
      'tree_name',
      eb.fn.countAll<number>().as('backup_count'),
      eb.fn.sum<number>('byte_size').as('stored_bytes'),
      eb.fn.max('created_at').as('newest_created_at'),
      countWhen(eb('last_verified_at', 'is', null)).as('never_verified'),
      countWhen(eb('last_verified_at', '<', staleBefore)).as('verified_stale'),
      countWhen(eb('last_health_status', '=', 'HEALTHY')).as('healthy'),
      countWhen(eb('last_health_status', '=', 'DEGRADED')).as('degraded'),
      countWhen(eb('last_health_status', '=', 'CORRUPT')).as('corrupt'),
      countWhen(eb('last_health_status', '=', 'MISSING')).as('missing'),
      eb.fn.min('last_verified_at').as('oldest_verified_at'),
    ])
    .orderBy('tree_name')
    .execute();
  return rows.map((row) => ({
    treeName: row.tree_name,
    backupCount: num(row.backup_count),
    storedBytes: num(row.stored_bytes),
    newestCreatedAt: numOrNull(row.newest_created_at),
    neverVerified: num(row.never_verified),
    verifiedStale: num(row.verified_stale),
    healthy: num(row.healthy),
    degraded: num(row.degraded),
    corrupt: num(row.corrupt),
    missing: num(row.missing),
    oldestVerifiedAt: numOrNull(row.oldest_verified_at),
  }));
}

/** Per tree of `tenant` with any scope row: its shortest interval and newest scheduled success. */
export async function aggregateSchedulesByTree(
  storage: Storage,
  tenant: string,
): Promise<TreeScheduleAggregate[]> {
  const rows = await storage.db
    .selectFrom('backup_scopes')
    .where('tenant', '=', tenant)
    .groupBy('tree_name')
    .select((eb) => [
      'tree_name',
      eb.fn.min('full_interval_ms').as('full_interval'),
      eb.fn.min('incremental_interval_ms').as('incremental_interval'),
      eb.fn.max('last_full_success_at').as('full_success'),
      eb.fn.max('last_incremental_success_at').as('incremental_success'),
    ])
    .execute();
  return rows.map((row) => {
    const intervals = [numOrNull(row.full_interval), numOrNull(row.incremental_interval)].filter(
      (value): value is number => value !== null && value > 0,
    );
    const successes = [numOrNull(row.full_success), numOrNull(row.incremental_success)].filter(
      (value): value is number => value !== null,
    );
    return {
      treeName: row.tree_name,
      shortestIntervalMs: intervals.length > 0 ? Math.min(...intervals) : null,
      lastScheduledSuccessAt: successes.length > 0 ? Math.max(...successes) : null,
    };
  });
}

/** The names of the tenant's trees. */
export async function listTreeNames(storage: Storage, tenant: string): Promise<string[]> {
  const rows = await storage.db
    .selectFrom('trees')
    .where('tenant', '=', tenant)
    .select('name')
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}

/** Capture operations of `kinds` finished since `since`, counted by terminal state. */
export async function countFinishedOperations(
  storage: Storage,
  tenant: string,
  kinds: readonly string[],
  since: number,
): Promise<{ succeeded: number; failed: number }> {
  const rows = await storage.db
    .selectFrom('operations')
    .where('tenant', '=', tenant)
    .where('kind', 'in', kinds)
    .where('finished_at', '>=', since)
    .where('state', 'in', ['SUCCEEDED', 'FAILED'])
    .groupBy('state')
    .select((eb) => ['state', eb.fn.countAll<number>().as('count')])
    .execute();
  const count = (state: string) => num(rows.find((row) => row.state === state)?.count);
  return { succeeded: count('SUCCEEDED'), failed: count('FAILED') };
}

/** A backup a stale health check will verify: never verified, or verified before a cutoff. */
export async function listStaleBackupIds(
  storage: Storage,
  tenant: string,
  filter: { verifiedBefore: number; treeName: string | null },
): Promise<string[]> {
  let query = storage.db
    .selectFrom('backups')
    .where('tenant', '=', tenant)
    .where((eb) =>
      eb.or([
        eb('last_verified_at', 'is', null),
        eb('last_verified_at', '<', filter.verifiedBefore),
      ]),
    );
  if (filter.treeName !== null) query = query.where('tree_name', '=', filter.treeName);
  // Never verified first, then the longest unverified: a cancelled run has done the worst first.
  const rows = await query
    .select('id')
    .orderBy(sql`case when last_verified_at is null then 0 else 1 end`)
    .orderBy('last_verified_at')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}
