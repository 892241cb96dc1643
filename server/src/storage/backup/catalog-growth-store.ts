import { sql } from 'kysely';
import type { Storage } from '../database.js';
// The lifecycle tables' types are declared (merged into Database) there.
import type {} from './lifecycle/backup-lifecycle-store.js';

/** SQL of catalog growth: GROUP BY aggregates by tree and UTC day, never a catalog listing. */

const DAY_MS = 86_400_000;

/** Backups (still in the catalog, or deleted by retention) created on one UTC day. */
export interface CreatedOnDay {
  treeName: string;
  /** Days since the epoch; -1: before the window. */
  createdDay: number;
  /** Days since the epoch of the retention deletion; null: still in the catalog. */
  deletedDay: number | null;
  backupCount: number;
  bytes: number;
}

/** The day (days since the epoch) of `column`, or -1 when it is before `windowStart`. */
const dayOf = (column: string, windowStart: number) =>
  sql<number>`case when ${sql.ref(column)} < ${windowStart} then -1 else ${sql.ref(column)} / ${sql.lit(DAY_MS)} end`;

const num = (value: unknown) => (value === null || value === undefined ? 0 : Number(value));

/**
 * Per tree and creation day: the backups in the catalog now, and the ones retention deleted
 * since `windowStart` (with their deletion day). Those created before the window share day -1.
 */
export async function backupsByCreationDay(
  storage: Storage,
  tenant: string,
  windowStart: number,
): Promise<CreatedOnDay[]> {
  const [present, deleted] = await Promise.all([
    storage.db
      .selectFrom('backups')
      .where('tenant', '=', tenant)
      .select((eb) => [
        'tree_name',
        dayOf('created_at', windowStart).as('created_day'),
        eb.fn.countAll<number>().as('backup_count'),
        eb.fn.sum<number>('byte_size').as('bytes'),
      ])
      .groupBy(['tree_name', 'created_day'])
      .execute(),
    storage.db
      .selectFrom('backup_retention_deletions')
      .where('tenant', '=', tenant)
      .where('deleted_at', '>=', windowStart)
      .where('backup_created_at', 'is not', null)
      .select((eb) => [
        'tree_name',
        dayOf('backup_created_at', windowStart).as('created_day'),
        sql<number>`deleted_at / ${sql.lit(DAY_MS)}`.as('deleted_day'),
        eb.fn.countAll<number>().as('backup_count'),
        eb.fn.sum<number>('byte_size').as('bytes'),
      ])
      .groupBy(['tree_name', 'created_day', 'deleted_day'])
      .execute(),
  ]);
  return [
    ...present.map((r) => ({
      treeName: r.tree_name,
      createdDay: num(r.created_day),
      deletedDay: null,
      backupCount: num(r.backup_count),
      bytes: num(r.bytes),
    })),
    ...deleted.map((r) => ({
      treeName: r.tree_name,
      createdDay: num(r.created_day),
      deletedDay: num(r.deleted_day),
      backupCount: num(r.backup_count),
      bytes: num(r.bytes),
    })),
  ];
}

/** What retention deleted since `since`: backups and their byte sizes. */
export async function retentionFreedSince(
  storage: Storage,
  tenant: string,
  since: number,
): Promise<{ backupCount: number; bytes: number }> {
  const row = await storage.db
    .selectFrom('backup_retention_deletions')
    .where('tenant', '=', tenant)
    .where('deleted_at', '>=', since)
    .select((eb) => [
      eb.fn.countAll<number>().as('backup_count'),
      eb.fn.sum<number>('byte_size').as('bytes'),
    ])
    .executeTakeFirst();
  return { backupCount: num(row?.backup_count), bytes: num(row?.bytes) };
}
