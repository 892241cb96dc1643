import type { Kysely, Migration } from 'kysely';

/**
 * Who reverted a restore (the caller's subject, like an operation's created_by), so a console can
 * say "Reverted by <who> at <time>" wherever the restore is listed. NULL until it is reverted, and
 * for reverts recorded before this column existed (their time is known, their author is not).
 */
export function restoreRevertedBy(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('backup_restores').addColumn('reverted_by', 'text').execute();
    },
  };
}
