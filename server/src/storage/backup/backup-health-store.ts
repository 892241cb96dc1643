import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { withTransaction, type TreeDb } from '../data/tree-db.js';
import { writeOutboxEvent } from '../notifications/outbox-store.js';

/** Statuses of a backup that cannot be restored as it is: retention never counts one. */
export const DAMAGED_STATUSES = ['CORRUPT', 'MISSING', 'DEGRADED'] as const;

/** SQL of backup health: the stored report and monitoring settings live on the catalog row. */

/**
 * Stores a fresh report and the catalog's freshness badge; false when the row is gone. A damaged
 * status keeps the time damage was first found while the backup stays damaged (the old row's
 * values are read by the SET expressions); a healthy one clears it. A backup found corrupt or
 * missing now, and not before, is a BACKUP_CORRUPT notification in the same transaction.
 */
export async function saveHealthReport(
  handle: TreeDb,
  report: { tenant: string; backupId: string; status: string; checkedAt: number; json: string },
): Promise<boolean> {
  return withTransaction(handle, async (tx) => {
    const before = await tx.db
      .selectFrom('backups')
      .select(['last_health_status', 'tree_name', 'name'])
      .where('tenant', '=', report.tenant)
      .where('id', '=', report.backupId)
      .executeTakeFirst();
    const result = await tx.db
      .updateTable('backups')
      .set({
        last_health_status: report.status,
        last_verified_at: report.checkedAt,
        health_report_json: report.json,
        health_damaged_since: (DAMAGED_STATUSES as readonly string[]).includes(report.status)
          ? sql<number>`case when last_health_status in ('CORRUPT', 'MISSING', 'DEGRADED')
            and health_damaged_since is not null then health_damaged_since
            else ${report.checkedAt} end`
          : null,
      })
      .where('tenant', '=', report.tenant)
      .where('id', '=', report.backupId)
      .executeTakeFirst();
    const unusable = (status: string | null | undefined) =>
      status === 'CORRUPT' || status === 'MISSING';
    // Found broken now, not broken before: one notification, with the verdict that says so.
    if (before && unusable(report.status) && !unusable(before.last_health_status)) {
      await writeOutboxEvent(tx, {
        eventId: `evt_${randomUUID()}`,
        tenant: report.tenant,
        kind: 'BACKUP_CORRUPT',
        scope: before.tree_name,
        operationId: '',
        summary: `Backup ${before.name} of ${before.tree_name} found ${report.status.toLowerCase()} by a health check`,
        payload: { backupId: report.backupId, backupName: before.name, status: report.status },
        createdAt: report.checkedAt,
      });
    }
    return result.numUpdatedRows > 0n;
  });
}

/** Sets a backup's monitoring; the first periodic check is due one interval from now. */
export async function configureHealthMonitoring(
  handle: TreeDb,
  config: {
    tenant: string;
    backupId: string;
    enabled: boolean;
    intervalMs: number | null;
    now: number;
  },
): Promise<boolean> {
  const { enabled, intervalMs, now } = config;
  const result = await handle.db
    .updateTable('backups')
    .set({
      health_monitoring: enabled ? 1 : 0,
      health_interval_ms: intervalMs,
      health_next_check_at: enabled && intervalMs !== null ? now + intervalMs : null,
    })
    .where('tenant', '=', config.tenant)
    .where('id', '=', config.backupId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A monitored backup whose periodic check is due. */
export interface DueHealthCheck {
  tenant: string;
  backupId: string;
  nextCheckAt: number;
  intervalMs: number;
}

/** Monitored backups whose check is due, oldest due first. */
export async function listDueHealthChecks(
  handle: TreeDb,
  now: number,
  limit: number,
): Promise<DueHealthCheck[]> {
  const rows = await handle.db
    .selectFrom('backups')
    .select(['tenant', 'id', 'health_next_check_at', 'health_interval_ms'])
    .where('health_monitoring', '=', 1)
    .where('health_next_check_at', '<=', now)
    .orderBy('health_next_check_at')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    tenant: r.tenant,
    backupId: r.id,
    nextCheckAt: Number(r.health_next_check_at),
    intervalMs: Number(r.health_interval_ms),
  }));
}

/**
 * Claims one due check by moving its next time forward with a compare-and-set on the old value:
 * of several replicas seeing the same due row, exactly one wins and runs the check.
 */
export async function claimHealthCheck(
  handle: TreeDb,
  due: DueHealthCheck,
  now: number,
): Promise<boolean> {
  const result = await handle.db
    .updateTable('backups')
    .set({ health_next_check_at: now + due.intervalMs })
    .where('tenant', '=', due.tenant)
    .where('id', '=', due.backupId)
    .where('health_monitoring', '=', 1)
    .where('health_next_check_at', '=', due.nextCheckAt)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
