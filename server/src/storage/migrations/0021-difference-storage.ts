import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/** How long the differences stored before this migration stay (the default expiry). */
const BACKFILL_EXPIRY_MS = 86_400_000;

/**
 * Preview storage (docs/security.md, "Preview storage"): one row per comparison saying how many
 * differences and bytes it stored, whether more differed than it stored, and when they expire
 * (null while an admin keeps them). The sweep deletes expired differences and keeps this row, so
 * a listing can say when they expired; the row goes with its operation record. Comparisons made
 * before this migration get a row counted from their stored differences, expiring a day after
 * the migration, so their rows stop outliving the new bound.
 */
export function differenceStorage(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const bigint = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('backup_comparison_storage')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('operation_id', text, (c) => c.notNull())
        .addColumn('stored_count', bigint, (c) => c.notNull())
        .addColumn('stored_bytes', bigint, (c) => c.notNull())
        .addColumn('truncated', 'integer', (c) => c.notNull())
        .addColumn('expires_at', bigint)
        .addColumn('kept_by', 'text')
        // Set once the sweep deleted the differences.
        .addColumn('swept_at', bigint)
        .addPrimaryKeyConstraint('backup_comparison_storage_pk', ['tenant', 'operation_id'])
        .execute();
      await db.schema
        .createIndex('backup_comparison_storage_by_expiry')
        .on('backup_comparison_storage')
        .columns(['expires_at'])
        .execute();
      const expiresAt = Date.now() + BACKFILL_EXPIRY_MS;
      const bytes = sql`sum(length(key) + coalesce(length(before_json), 0) + coalesce(length(after_json), 0))`;
      await sql`
        insert into backup_comparison_storage
          (tenant, operation_id, stored_count, stored_bytes, truncated, expires_at)
        select tenant, operation_id, count(*), ${bytes}, 0, ${expiresAt}
        from backup_comparison_differences
        group by tenant, operation_id`.execute(db);
    },
  };
}
