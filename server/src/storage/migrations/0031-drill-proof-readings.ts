import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The proven drills of each scope by time (issue 36 bullet 6): a metrics scrape reads each
 * tree's newest PROVEN drill (store_drill_last_proven_timestamp_seconds) and the dashboard's
 * "not proven" alert the same, from this index alone, one row per tree, never the drill history.
 * Partial: FAILED drills are no proof and are left out of it.
 */
export function drillProofReadings(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('backup_restore_drills_proven')
        .on('backup_restore_drills')
        .columns(['tenant', 'tree_name', 'finished_at'])
        .where(sql.ref('outcome'), '=', 'PROVEN')
        .execute();
    },
  };
}
