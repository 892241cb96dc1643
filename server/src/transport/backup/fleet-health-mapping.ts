import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  durationFromMs,
  StoreStaleHealthCheckResultSchema,
  TreeProtection,
  type BackupVerificationCountsSchema,
  type CatalogSummaryResponseSchema,
  type StoreOperationStatus,
} from '@store/contract';
import type { GrowthPoint } from '../../engines/backup/insight/catalog-growth.js';
import type {
  CatalogSummary,
  RetentionFreed,
  StaleHealthCheckResult,
  VerificationCounts,
} from '../../engines/backup/insight/fleet-health.js';

/** The wire form of the catalog summary and of a stale health check's result. */

const PROTECTION: Record<CatalogSummary['trees'][number]['protection'], TreeProtection> = {
  PROTECTED: TreeProtection.PROTECTED,
  NO_SCHEDULE: TreeProtection.NO_SCHEDULE,
  OVERDUE: TreeProtection.OVERDUE,
};

const optionalTime = (ms: number | null) => (ms === null ? undefined : timestampFromMs(ms));

const toGrowth = (points: readonly GrowthPoint[]) =>
  points.map((p) => ({
    day: timestampFromMs(p.day),
    backupCount: BigInt(p.backupCount),
    storedBytes: BigInt(p.storedBytes),
  }));

const toFreed = (freed: RetentionFreed) => ({
  backupCount: BigInt(freed.backupCount),
  bytes: BigInt(freed.bytes),
});

function toCounts(c: VerificationCounts): MessageInitShape<typeof BackupVerificationCountsSchema> {
  return {
    neverVerified: BigInt(c.neverVerified),
    verifiedStale: BigInt(c.verifiedStale),
    verifiedRecently: BigInt(c.verifiedRecently),
    healthy: BigInt(c.healthy),
    degraded: BigInt(c.degraded),
    corrupt: BigInt(c.corrupt),
    missing: BigInt(c.missing),
  };
}

export function toCatalogSummary(
  summary: CatalogSummary,
): MessageInitShape<typeof CatalogSummaryResponseSchema> {
  return {
    treeCount: BigInt(summary.treeCount),
    backupCount: BigInt(summary.backupCount),
    storedBytes: BigInt(summary.storedBytes),
    capturesSucceededLastDay: BigInt(summary.capturesSucceededLastDay),
    capturesFailedLastDay: BigInt(summary.capturesFailedLastDay),
    unprotectedTreeCount: BigInt(summary.unprotectedTreeCount),
    verification: toCounts(summary.verification),
    trees: summary.trees.map((tree) => ({
      treeId: tree.treeId,
      backupCount: BigInt(tree.backupCount),
      storedBytes: BigInt(tree.storedBytes),
      lastSuccessAt: optionalTime(tree.lastSuccessAt),
      scheduleInterval:
        tree.scheduleIntervalMs === null ? undefined : durationFromMs(tree.scheduleIntervalMs),
      protection: PROTECTION[tree.protection],
      verification: toCounts(tree.verification),
      oldestVerifiedAt: optionalTime(tree.oldestVerifiedAt),
      growth: toGrowth(tree.growth),
    })),
    staleAfter: durationFromMs(summary.staleAfterMs),
    computedAt: timestampFromMs(summary.computedAt),
    growth: toGrowth(summary.growth),
    retentionFreedLastDay: toFreed(summary.retentionFreedLastDay),
    retentionFreedLast30Days: toFreed(summary.retentionFreedLast30Days),
  };
}

/** The status's result oneof for a finished STALE_HEALTH_CHECK. */
export function mapStaleHealthCheckResult(result: unknown): StoreOperationStatus['result'] {
  const r = result as StaleHealthCheckResult;
  return {
    case: 'staleHealthCheck',
    value: create(StoreStaleHealthCheckResultSchema, {
      selected: BigInt(r.selected),
      checked: BigInt(r.checked),
      healthy: BigInt(r.healthy),
      degraded: BigInt(r.degraded),
      corrupt: BigInt(r.corrupt),
      missing: BigInt(r.missing),
      skipped: BigInt(r.skipped),
      unhealthyBackupIds: r.unhealthyBackupIds,
      verifiedBefore: timestampFromMs(r.verifiedBefore),
      treeId: r.treeName ?? '',
    }),
  };
}
