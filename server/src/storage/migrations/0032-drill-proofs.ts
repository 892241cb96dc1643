import type { Kysely, Migration } from 'kysely';

/**
 * Two indexes the console's proof reads use (issue 36 bullet 5): a tree's drills newest first
 * by outcome (its last proven and its last drill, read per page of trees) and a backup's drills
 * newest first (the catalog's and the backup page's "last proven restorable"). Without them the
 * tree read sorts every drill of the tree across its scopes and the backup read scans the
 * tenant's drills.
 */
export function drillProofs(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('backup_restore_drills_by_tree_outcome')
        .on('backup_restore_drills')
        .columns(['tenant', 'tree_name', 'outcome', 'finished_at'])
        .execute();
      await db.schema
        .createIndex('backup_restore_drills_by_backup')
        .on('backup_restore_drills')
        .columns(['tenant', 'backup_id', 'finished_at'])
        .execute();
    },
  };
}
