import type { TreeDb } from '../data/tree-db.js';

/**
 * SQL of preview storage (migration 0021): per comparison, what it stored of its differences and
 * until when. The differences themselves are in backup-comparison-store.ts.
 */

export interface BackupComparisonStorageTable {
  tenant: string;
  operation_id: string;
  stored_count: number;
  stored_bytes: number;
  /** 1 when more keys differed than were stored. */
  truncated: number;
  /** Null while kept. */
  expires_at: number | null;
  kept_by: string | null;
  /** When the sweep deleted the differences; null before. */
  swept_at: number | null;
}

declare module '../database-schema.js' {
  interface Database {
    backup_comparison_storage: BackupComparisonStorageTable;
  }
}

/** What one comparison stored of its differences. */
export interface DifferenceStorageRow {
  storedCount: number;
  storedBytes: number;
  truncated: boolean;
  /** Null while kept. */
  expiresAt: number | null;
  keptBy: string | null;
  sweptAt: number | null;
}

/** Starts (or restarts) a comparison's record with nothing stored yet. */
export async function openDifferenceStorage(
  handle: TreeDb,
  tenant: string,
  operationId: string,
  expiresAt: number,
): Promise<void> {
  await deleteDifferenceStorage(handle, tenant, operationId);
  await handle.db
    .insertInto('backup_comparison_storage')
    .values({
      tenant,
      operation_id: operationId,
      stored_count: 0,
      stored_bytes: 0,
      truncated: 0,
      expires_at: expiresAt,
      kept_by: null,
      swept_at: null,
    })
    .execute();
}

/** Counts a stored page (and whether the cap cut it) against the comparison. */
export async function addStoredDifferences(
  handle: TreeDb,
  tenant: string,
  operationId: string,
  page: { count: number; bytes: number; truncated: boolean },
): Promise<void> {
  await handle.db
    .updateTable('backup_comparison_storage')
    .set((eb) => ({
      stored_count: eb('stored_count', '+', page.count),
      stored_bytes: eb('stored_bytes', '+', page.bytes),
      ...(page.truncated && { truncated: 1 }),
    }))
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .execute();
}

/** Sets when the differences expire (null: kept by `keptBy`); false when there is no record. */
export async function setDifferenceExpiry(
  handle: TreeDb,
  tenant: string,
  operationId: string,
  expiry: { expiresAt: number | null; keptBy: string | null },
): Promise<boolean> {
  const result = await handle.db
    .updateTable('backup_comparison_storage')
    .set({ expires_at: expiry.expiresAt, kept_by: expiry.keptBy })
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function getDifferenceStorage(
  handle: TreeDb,
  tenant: string,
  operationId: string,
): Promise<DifferenceStorageRow | undefined> {
  const row = await handle.db
    .selectFrom('backup_comparison_storage')
    .selectAll()
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    storedCount: Number(row.stored_count),
    storedBytes: Number(row.stored_bytes),
    truncated: Number(row.truncated) !== 0,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    keptBy: row.kept_by,
    sweptAt: row.swept_at === null ? null : Number(row.swept_at),
  };
}

export async function deleteDifferenceStorage(
  handle: TreeDb,
  tenant: string,
  operationId: string,
): Promise<void> {
  await handle.db
    .deleteFrom('backup_comparison_storage')
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .execute();
}

/**
 * A tenant's stored difference bytes that still count at `now` (neither swept nor expired), and
 * the earliest expiry among them (when room frees up), for the tenant's cap.
 */
export async function tenantDifferenceBytes(
  handle: TreeDb,
  tenant: string,
  now: number,
): Promise<{ bytes: number; nextExpiry: number | null }> {
  const row = await handle.db
    .selectFrom('backup_comparison_storage')
    .select((eb) => [
      eb.fn.sum<string | number | null>('stored_bytes').as('bytes'),
      eb.fn.min<string | number | null>('expires_at').as('next_expiry'),
    ])
    .where('tenant', '=', tenant)
    .where('swept_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  return {
    bytes: Number(row?.bytes ?? 0),
    nextExpiry:
      row?.next_expiry === null || row?.next_expiry === undefined ? null : Number(row.next_expiry),
  };
}

/**
 * Deletes the differences of up to `limit` comparisons that expired by `now` and marks them
 * swept (the record stays, so a listing can say when they expired); returns how many.
 */
export async function sweepExpiredDifferences(
  handle: TreeDb,
  now: number,
  limit: number,
): Promise<number> {
  const due = await handle.db
    .selectFrom('backup_comparison_storage')
    .select(['tenant', 'operation_id'])
    .where('expires_at', '<=', now)
    .where('swept_at', 'is', null)
    .limit(limit)
    .execute();
  for (const { tenant, operation_id } of due) {
    await handle.db
      .deleteFrom('backup_comparison_differences')
      .where('tenant', '=', tenant)
      .where('operation_id', '=', operation_id)
      .execute();
    await handle.db
      .updateTable('backup_comparison_storage')
      .set({ swept_at: now })
      .where('tenant', '=', tenant)
      .where('operation_id', '=', operation_id)
      .execute();
  }
  return due.length;
}

/**
 * Deletes the records, and the differences, of up to `limit` comparisons whose operation the
 * runner has purged (kept ones last as long as their operation record); returns how many.
 */
export async function pruneOrphanStorage(handle: TreeDb, limit: number): Promise<number> {
  const orphans = await handle.db
    .selectFrom('backup_comparison_storage')
    .select(['tenant', 'operation_id'])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('operations')
            .select('operations.id')
            .whereRef('operations.id', '=', 'backup_comparison_storage.operation_id')
            .whereRef('operations.tenant', '=', 'backup_comparison_storage.tenant'),
        ),
      ),
    )
    .limit(limit)
    .execute();
  for (const { tenant, operation_id } of orphans) {
    await handle.db
      .deleteFrom('backup_comparison_differences')
      .where('tenant', '=', tenant)
      .where('operation_id', '=', operation_id)
      .execute();
    await deleteDifferenceStorage(handle, tenant, operation_id);
  }
  return orphans.length;
}
