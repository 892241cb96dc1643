import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/**
 * Restore drill plans (issue 36 bullet 3): named per scope, on demand (no interval) or on a
 * cadence with an optional time-of-day anchor, as schedules. `next_run_at` is what replicas
 * compare-and-set to claim a run, so exactly one of them fires it; `last_backup_id` is the
 * backup the last run drilled, which EACH_NEW_FULL compares with (by its capture time, which outlives
 * the backup's deletion) to drill each new full once.
 */
export function restoreDrillPlans(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('backup_restore_drill_plans')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('key_prefix', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('interval_ms', big)
        .addColumn('anchor_minute_of_day', 'integer')
        .addColumn('anchor_time_zone', 'text')
        .addColumn('choice', 'text', (c) => c.notNull())
        .addColumn('window_ms', big)
        .addColumn('max_entries_per_second', 'integer', (c) => c.notNull())
        .addColumn('paused', 'integer', (c) => c.notNull())
        .addColumn('next_run_at', big)
        .addColumn('last_run_at', big)
        .addColumn('last_operation_id', 'text')
        .addColumn('last_backup_id', 'text')
        .addColumn('last_backup_created_at', big)
        .addColumn('last_outcome', 'text')
        .addColumn('last_reason', 'text')
        .addColumn('last_started_by', 'text')
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_restore_drill_plans_pk', [
          'tenant',
          'tree_name',
          'key_prefix',
          'name',
        ])
        .execute();
      // The background tick's "due plans" read, over every tenant.
      await db.schema
        .createIndex('backup_restore_drill_plans_due')
        .on('backup_restore_drill_plans')
        .columns(['next_run_at'])
        .execute();
    },
  };
}
