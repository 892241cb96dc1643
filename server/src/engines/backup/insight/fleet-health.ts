import {
  aggregateBackupsByTree,
  aggregateSchedulesByTree,
  countFinishedOperations,
  listStaleBackupIds,
  listTreeNames,
} from '../../../storage/backup/catalog-summary-store.js';
import {
  backupsByCreationDay,
  retentionFreedSince,
} from '../../../storage/backup/catalog-growth-store.js';
import type { Storage } from '../../../storage/database.js';
import { validateTreeName } from '../../data/tree-names.js';
import { StoreError, invalidArgument } from '../../errors.js';
import {
  startTracked,
  type OperationContext,
  type OperationRecord,
  type OperationRunner,
  type Starter,
} from '../../operations/index.js';
import type { ArtifactStore } from '../artifacts/index.js';
import { checkBackupHealth } from '../health/health-check.js';
import {
  DAY_MS as GROWTH_DAY_MS,
  emptyGrowth,
  firstGrowthDay,
  growthByTree,
  GROWTH_DAYS,
  totalGrowth,
  type GrowthPoint,
} from './catalog-growth.js';

export const DAY_MS = 86_400_000;
/** A verification older than this is stale unless the caller says otherwise. */
export const DEFAULT_STALE_AFTER_MS = 7 * DAY_MS;
/**
 * The longest staleness window asked for. Longer ones answered Internal: the summary echoes the
 * window as a Duration and a check records "verified before" as a Timestamp, and seconds past
 * int64 or a date before year 1 cannot be encoded (a stored one broke every later listing of
 * insight operations in JSON). A century already covers every backup there is.
 */
export const MAX_STALE_AFTER_MS = 100 * 366 * DAY_MS;

function checkStaleWindow(ms: number, field: string): void {
  if (!Number.isFinite(ms) || ms < 0) throw invalidArgument(field, 'must not be negative');
  if (ms > MAX_STALE_AFTER_MS) throw invalidArgument(field, 'must be at most 100 years');
}
/** The capture kinds the summary's "last 24 hours" counts. */
const CAPTURE_KINDS = ['BACKUP', 'INCREMENTAL_BACKUP', 'BACKUP_SET'] as const;
/** Unhealthy backups a stale health check names in its result; the rest are only counted. */
const UNHEALTHY_IDS_KEPT = 100;

export type TreeProtection = 'PROTECTED' | 'NO_SCHEDULE' | 'OVERDUE';

export interface VerificationCounts {
  neverVerified: number;
  verifiedStale: number;
  verifiedRecently: number;
  healthy: number;
  degraded: number;
  corrupt: number;
  missing: number;
}

export interface TreeSummary {
  treeId: string;
  backupCount: number;
  storedBytes: number;
  lastSuccessAt: number | null;
  scheduleIntervalMs: number | null;
  protection: TreeProtection;
  verification: VerificationCounts;
  oldestVerifiedAt: number | null;
  /** Catalog growth: the last 30 UTC days, oldest first (catalog-growth.ts). */
  growth: GrowthPoint[];
}

export interface RetentionFreed {
  backupCount: number;
  bytes: number;
}

export interface CatalogSummary {
  treeCount: number;
  backupCount: number;
  storedBytes: number;
  capturesSucceededLastDay: number;
  capturesFailedLastDay: number;
  unprotectedTreeCount: number;
  verification: VerificationCounts;
  trees: TreeSummary[];
  staleAfterMs: number;
  computedAt: number;
  growth: GrowthPoint[];
  retentionFreedLastDay: RetentionFreed;
  retentionFreedLast30Days: RetentionFreed;
}

export interface StaleHealthCheckRequest {
  /** Epoch ms: backups verified before it (or never) are checked. */
  verifiedBefore: number;
  /** Only this tree's backups; null: every tree. */
  treeName: string | null;
}

export interface StaleHealthCheckResult {
  selected: number;
  checked: number;
  healthy: number;
  degraded: number;
  corrupt: number;
  missing: number;
  skipped: number;
  unhealthyBackupIds: string[];
  verifiedBefore: number;
  treeName: string | null;
}

const zeroCounts = (): VerificationCounts => ({
  neverVerified: 0,
  verifiedStale: 0,
  verifiedRecently: 0,
  healthy: 0,
  degraded: 0,
  corrupt: 0,
  missing: 0,
});

/**
 * A tree is protected when it has a schedule and a backup succeeded within twice the shortest
 * interval (the dashboard's rule for a schedule that is behind); a manual backup counts too.
 */
export function protectionOf(
  intervalMs: number | null,
  lastSuccessAt: number | null,
  now: number,
): TreeProtection {
  if (intervalMs === null) return 'NO_SCHEDULE';
  if (lastSuccessAt === null || now - lastSuccessAt > 2 * intervalMs) return 'OVERDUE';
  return 'PROTECTED';
}

/**
 * The dashboard's numbers and the fleet's "verify stale backups". The summary is a handful of
 * GROUP BY queries whatever the catalog's size; the stale check is one tracked operation running
 * the ordinary health check per backup, so each backup gets its usual report and catalog badge.
 */
export class FleetHealth {
  constructor(
    private readonly deps: {
      storage: Storage;
      artifacts: ArtifactStore;
      runner: OperationRunner;
      clock: () => number;
    },
  ) {
    deps.runner.register<StaleHealthCheckRequest, unknown>('STALE_HEALTH_CHECK', {
      // Each check stores its report as it goes; a run started again skips what is fresh now.
      resumable: false,
      run: (ctx) => this.runStaleCheck(ctx),
    });
  }

  async summary(tenant: string, staleAfterMs: number): Promise<CatalogSummary> {
    checkStaleWindow(staleAfterMs, 'stale_after');
    const staleAfter = staleAfterMs === 0 ? DEFAULT_STALE_AFTER_MS : staleAfterMs;
    const { storage, clock } = this.deps;
    const now = clock();
    const windowStart = firstGrowthDay(now) * GROWTH_DAY_MS;
    const [names, backups, schedules, captures, created, freedDay, freedMonth] = await Promise.all([
      listTreeNames(storage, tenant),
      aggregateBackupsByTree(storage, tenant, now - staleAfter),
      aggregateSchedulesByTree(storage, tenant),
      countFinishedOperations(storage, tenant, CAPTURE_KINDS, now - DAY_MS),
      backupsByCreationDay(storage, tenant, windowStart),
      retentionFreedSince(storage, tenant, now - DAY_MS),
      retentionFreedSince(storage, tenant, now - GROWTH_DAYS * GROWTH_DAY_MS),
    ]);
    const growth = growthByTree(created, now);
    const byTree = new Map(backups.map((row) => [row.treeName, row]));
    const scheduleOf = new Map(schedules.map((row) => [row.treeName, row]));
    const allNames = [...new Set([...names, ...byTree.keys()])].sort();
    const totals = zeroCounts();
    const trees = allNames.map((treeId): TreeSummary => {
      const b = byTree.get(treeId);
      const s = scheduleOf.get(treeId);
      const verified = b ? b.backupCount - b.neverVerified : 0;
      const verification: VerificationCounts = {
        neverVerified: b?.neverVerified ?? 0,
        verifiedStale: b?.verifiedStale ?? 0,
        verifiedRecently: b ? verified - b.verifiedStale : 0,
        healthy: b?.healthy ?? 0,
        degraded: b?.degraded ?? 0,
        corrupt: b?.corrupt ?? 0,
        missing: b?.missing ?? 0,
      };
      for (const key of Object.keys(totals) as (keyof VerificationCounts)[]) {
        totals[key] += verification[key];
      }
      const successes = [b?.newestCreatedAt ?? null, s?.lastScheduledSuccessAt ?? null].filter(
        (value): value is number => value !== null,
      );
      const lastSuccessAt = successes.length > 0 ? Math.max(...successes) : null;
      const scheduleIntervalMs = s?.shortestIntervalMs ?? null;
      return {
        treeId,
        backupCount: b?.backupCount ?? 0,
        storedBytes: b?.storedBytes ?? 0,
        lastSuccessAt,
        scheduleIntervalMs,
        protection: protectionOf(scheduleIntervalMs, lastSuccessAt, now),
        verification,
        oldestVerifiedAt: b?.oldestVerifiedAt ?? null,
        growth: growth.get(treeId) ?? emptyGrowth(now),
      };
    });
    return {
      treeCount: names.length,
      backupCount: backups.reduce((sum, row) => sum + row.backupCount, 0),
      storedBytes: backups.reduce((sum, row) => sum + row.storedBytes, 0),
      capturesSucceededLastDay: captures.succeeded,
      capturesFailedLastDay: captures.failed,
      unprotectedTreeCount: trees.filter((tree) => tree.protection !== 'PROTECTED').length,
      verification: totals,
      trees,
      staleAfterMs: staleAfter,
      computedAt: now,
      growth: totalGrowth(growth, now),
      retentionFreedLastDay: freedDay,
      retentionFreedLast30Days: freedMonth,
    };
  }

  /** Queues "verify stale backups"; `olderThanMs` undefined means the default week. */
  startStaleCheck(
    who: Starter,
    request: { olderThanMs: number | undefined; treeId: string | undefined },
  ): Promise<OperationRecord> {
    const olderThan = request.olderThanMs ?? DEFAULT_STALE_AFTER_MS;
    checkStaleWindow(olderThan, 'older_than');
    const treeName = request.treeId ? request.treeId : null;
    if (treeName !== null) validateTreeName(treeName, 'tree_id');
    const normalized: StaleHealthCheckRequest = {
      // A time in whole milliseconds, as every stored time: a window with a sub-millisecond part
      // made a Timestamp whose nanos were not whole, and listing the operation answered Internal.
      verifiedBefore: Math.floor(this.deps.clock() - olderThan),
      treeName,
    };
    return startTracked(this.deps.runner, who, {
      kind: 'STALE_HEALTH_CHECK',
      request: normalized,
      targetId: treeName,
      // "Before" is now less the window: the same request retried later is still the same one.
      callerRequest: { olderThanMs: olderThan, treeName },
    });
  }

  private async runStaleCheck(
    ctx: OperationContext<StaleHealthCheckRequest>,
  ): Promise<StaleHealthCheckResult> {
    const { storage, artifacts, clock } = this.deps;
    const { verifiedBefore, treeName } = ctx.request;
    const ids = await listStaleBackupIds(storage, ctx.tenant, { verifiedBefore, treeName });
    const result: StaleHealthCheckResult = {
      selected: ids.length,
      checked: 0,
      healthy: 0,
      degraded: 0,
      corrupt: 0,
      missing: 0,
      skipped: 0,
      unhealthyBackupIds: [],
      verifiedBefore,
      treeName,
    };
    ctx.progress({ done: 0, total: ids.length, unit: 'backups' });
    for (const [index, backupId] of ids.entries()) {
      ctx.throwIfCancelled();
      try {
        const report = await checkBackupHealth(storage, artifacts, ctx.tenant, backupId, {
          now: clock,
          signal: ctx.signal,
        });
        result.checked += 1;
        const key = report.status.toLowerCase() as 'healthy' | 'degraded' | 'corrupt' | 'missing';
        result[key] += 1;
        if (report.status !== 'HEALTHY' && result.unhealthyBackupIds.length < UNHEALTHY_IDS_KEPT) {
          result.unhealthyBackupIds.push(backupId);
        }
      } catch (error) {
        // Deleted since the run listed it: nothing left to verify.
        if (!(error instanceof StoreError) || error.code !== 'not_found') throw error;
        result.skipped += 1;
      }
      ctx.progress({
        done: index + 1,
        total: ids.length,
        unit: 'backups',
        message: `${result.checked} checked, ${result.corrupt + result.missing + result.degraded} unhealthy`,
      });
    }
    return result;
  }
}
