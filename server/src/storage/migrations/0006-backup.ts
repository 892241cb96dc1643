import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/**
 * The backup engine's tables: the catalog (one row per durable backup, with its health state),
 * captures in progress (so scrub tells a running capture from a crashed one), stored restores
 * (for RevertRestore and restore idempotency) and per-tree scopes (schedules and run status).
 */
export function backupTables(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('backups')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('id', text, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('key_prefix', 'text')
        .addColumn('base_backup_id', text)
        .addColumn('set_id', text)
        .addColumn('physical_tree_id', text, (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('completed_at', big, (c) => c.notNull())
        .addColumn('to_sequence', big, (c) => c.notNull())
        .addColumn('manifest_json', 'text', (c) => c.notNull())
        .addColumn('last_health_status', 'text')
        .addColumn('last_verified_at', big)
        .addColumn('health_report_json', 'text')
        .addColumn('health_monitoring', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('health_interval_ms', big)
        .addColumn('health_next_check_at', big)
        .addPrimaryKeyConstraint('backups_pk', ['tenant', 'id'])
        .execute();
      await db.schema
        .createIndex('backups_by_created')
        .on('backups')
        .columns(['tenant', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('backups_by_base')
        .on('backups')
        .columns(['tenant', 'base_backup_id'])
        .execute();
      await db.schema
        .createIndex('backups_by_tree')
        .on('backups')
        .columns(['tenant', 'tree_name', 'completed_at'])
        .execute();

      await db.schema
        .createTable('backup_captures')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('backup_id', text, (c) => c.notNull())
        .addColumn('operation_id', text, (c) => c.notNull())
        .addColumn('started_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_captures_pk', ['tenant', 'backup_id'])
        .execute();

      await db.schema
        .createTable('backup_restores')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('operation_id', text, (c) => c.notNull())
        .addColumn('backup_id', text, (c) => c.notNull())
        .addColumn('target_tree', text, (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('restored_physical_tree_id', text, (c) => c.notNull())
        .addColumn('previous_physical_tree_id', text)
        .addColumn('result_json', 'text', (c) => c.notNull())
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('reverted_at', big)
        .addPrimaryKeyConstraint('backup_restores_pk', ['tenant', 'operation_id'])
        .execute();

      await db.schema
        .createTable('backup_scopes')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('full_interval_ms', big)
        .addColumn('full_key_prefix', 'text')
        .addColumn('full_next_run_at', big)
        .addColumn('incremental_interval_ms', big)
        .addColumn('incremental_key_prefix', 'text')
        .addColumn('incremental_next_run_at', big)
        .addColumn('last_full_run_at', big)
        .addColumn('last_full_success_at', big)
        .addColumn('last_incremental_run_at', big)
        .addColumn('last_incremental_success_at', big)
        .addColumn('last_outcome', 'text', (c) => c.notNull().defaultTo('NONE'))
        .addColumn('updated_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_scopes_pk', ['tenant', 'tree_name'])
        .execute();
    },
  };
}
