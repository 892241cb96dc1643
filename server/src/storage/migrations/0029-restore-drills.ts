import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/**
 * Restore drills' results (issue 36 bullet 2): one row per backup a finished drill restored (a
 * set's drill has one per member), PROVEN or FAILED with the reason, so a scope's drill history (and the expected time to restore) outlives the purge
 * of its operations. Listed per scope, newest first.
 */
export function restoreDrills(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('backup_restore_drills')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('operation_id', text, (c) => c.notNull())
        .addColumn('backup_id', text, (c) => c.notNull())
        .addColumn('set_id', 'text')
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('key_prefix', text, (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('reason_kind', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('first_differing_key', 'text')
        .addColumn('entries', big, (c) => c.notNull())
        .addColumn('duration_ms', big, (c) => c.notNull())
        .addColumn('sample_seed', 'text', (c) => c.notNull())
        .addColumn('sample_size', 'integer', (c) => c.notNull())
        .addColumn('started_at', big, (c) => c.notNull())
        .addColumn('finished_at', big, (c) => c.notNull())
        .addColumn('started_by', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_restore_drills_pk', [
          'tenant',
          'operation_id',
          'backup_id',
        ])
        .execute();
      await db.schema
        .createIndex('backup_restore_drills_by_scope')
        .on('backup_restore_drills')
        .columns(['tenant', 'tree_name', 'key_prefix', 'finished_at'])
        .execute();
    },
  };
}
