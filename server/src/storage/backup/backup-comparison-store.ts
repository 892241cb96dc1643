import { underPrefix, type TreeDb } from '../data/tree-db.js';

/** SQL of the differences a restore preview or backup diff found (migration 0011). */

export type DifferenceChange = 'ADDED' | 'CHANGED' | 'REMOVED';

/** One key that differs between the two sides of a comparison. */
export interface StoredDifference {
  key: string;
  change: DifferenceChange;
  /** Canonical JSON before; null when ADDED. */
  beforeJson: string | null;
  /** Canonical JSON after; null when REMOVED. */
  afterJson: string | null;
  beforeSchemaVersion: number;
  afterSchemaVersion: number;
}

/** Stores one page of a comparison's differences (keys are unique within a comparison). */
export async function insertDifferences(
  handle: TreeDb,
  tenant: string,
  operationId: string,
  differences: readonly StoredDifference[],
): Promise<void> {
  if (differences.length === 0) return;
  await handle.db
    .insertInto('backup_comparison_differences')
    .values(
      differences.map((d) => ({
        tenant,
        operation_id: operationId,
        key: d.key,
        change: d.change,
        before_json: d.beforeJson,
        after_json: d.afterJson,
        before_schema_version: d.beforeSchemaVersion,
        after_schema_version: d.afterSchemaVersion,
      })),
    )
    .execute();
}

/**
 * One page of a comparison's differences in byte order of key, after `afterKey`. Without
 * `withValues` the before and after JSON are not read (null): the caller may not see them.
 */
export async function listDifferences(
  handle: TreeDb,
  tenant: string,
  operationId: string,
  page: {
    afterKey?: string | undefined;
    limit: number;
    changes: readonly DifferenceChange[];
    withValues: boolean;
  },
): Promise<StoredDifference[]> {
  const rows = await handle.db
    .selectFrom('backup_comparison_differences')
    .select(['key', 'change', 'before_schema_version', 'after_schema_version'])
    .$if(page.withValues, (qb) => qb.select(['before_json', 'after_json']))
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .$if(page.afterKey !== undefined, (qb) => qb.where('key', '>', page.afterKey ?? ''))
    .$if(page.changes.length > 0, (qb) => qb.where('change', 'in', [...page.changes]))
    .orderBy('key')
    .limit(page.limit)
    .execute();
  return rows.map((row) => ({
    key: row.key,
    change: row.change as DifferenceChange,
    beforeJson: row.before_json ?? null,
    afterJson: row.after_json ?? null,
    beforeSchemaVersion: Number(row.before_schema_version),
    afterSchemaVersion: Number(row.after_schema_version),
  }));
}

/** Deletes a comparison's differences (a failed or cancelled run leaves none behind). */
export async function deleteDifferences(
  handle: TreeDb,
  tenant: string,
  operationId: string,
): Promise<void> {
  await handle.db
    .deleteFrom('backup_comparison_differences')
    .where('tenant', '=', tenant)
    .where('operation_id', '=', operationId)
    .execute();
}

/**
 * Deletes the differences of a tenant's comparisons whose operation record is gone (the runner
 * deletes finished operations after their retention), so the table does not outlive them.
 */
export async function pruneOrphanDifferences(handle: TreeDb, tenant: string): Promise<void> {
  await handle.db
    .deleteFrom('backup_comparison_differences')
    .where('tenant', '=', tenant)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('operations')
            .select('operations.id')
            .whereRef('operations.id', '=', 'backup_comparison_differences.operation_id')
            .whereRef('operations.tenant', '=', 'backup_comparison_differences.tenant'),
        ),
      ),
    )
    .execute();
}

/** A live entry's value, as a comparison reads the tree. */
export interface LiveValue {
  key: string;
  valueJson: string;
  schemaVersion: number;
}

/**
 * One page of a physical tree's live entries (no tombstones) in byte order of key, after
 * `afterKey`, under `keyPrefix`: only the columns a comparison needs, since a preview reads
 * every entry of the tree.
 */
export async function readLiveValues(
  handle: TreeDb,
  physicalTreeId: string,
  page: { afterKey?: string | undefined; limit: number; keyPrefix: string },
): Promise<LiveValue[]> {
  const prefix = page.keyPrefix;
  const rows = await handle.db
    .selectFrom('entries')
    .select(['key', 'value_json', 'schema_version'])
    .where('physical_tree_id', '=', physicalTreeId)
    .where('tombstone', '=', 0)
    .$if(page.afterKey !== undefined, (qb) => qb.where('key', '>', page.afterKey ?? ''))
    .$if(prefix !== '', (qb) => qb.where(underPrefix('key', prefix)))
    .orderBy('key')
    .limit(page.limit)
    .execute();
  return rows.map((row) => ({
    key: row.key,
    valueJson: row.value_json ?? 'null',
    schemaVersion: Number(row.schema_version),
  }));
}
