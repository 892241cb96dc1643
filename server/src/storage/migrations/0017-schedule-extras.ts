import type { Kysely, Migration } from 'kysely';

/**
 * Schedule settings the spec's ScheduleBackup has no field for, per scope: a time-of-day anchor
 * in an IANA zone (minutes after local midnight; both or neither), a backup name template (NULL:
 * the default), and whether an unchanged scheduled incremental still writes a backup (0: it is
 * recorded as a skipped run instead). last_run_reason says why the last run was skipped.
 */
export function scheduleExtras(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const table = () => db.schema.alterTable('backup_scopes');
      await table().addColumn('anchor_minute_of_day', 'integer').execute();
      await table().addColumn('anchor_time_zone', 'text').execute();
      await table().addColumn('name_template', 'text').execute();
      await table()
        .addColumn('capture_unchanged_incrementals', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await table().addColumn('last_run_reason', 'text').execute();
    },
  };
}
