import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/**
 * The backup lifecycle's tables: retention rules per scope (tree + key prefix, as schedules),
 * protections (pins, legal holds) per backup, and retention's deletion claims, which make two
 * replicas applying at once delete each backup once and stay as the record of what retention
 * freed.
 */
export function backupLifecycle(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('backup_retention_rules')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('key_prefix', text, (c) => c.notNull())
        .addColumn('keep_last', 'integer', (c) => c.notNull())
        .addColumn('keep_hourly', 'integer', (c) => c.notNull())
        .addColumn('keep_daily', 'integer', (c) => c.notNull())
        .addColumn('keep_weekly', 'integer', (c) => c.notNull())
        .addColumn('keep_monthly', 'integer', (c) => c.notNull())
        .addColumn('keep_yearly', 'integer', (c) => c.notNull())
        .addColumn('keep_within_ms', big, (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('apply_after_schedule', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_retention_rules_pk', ['tenant', 'tree_name', 'key_prefix'])
        .execute();
      await db.schema
        .createTable('backup_protections')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('backup_id', text, (c) => c.notNull())
        .addColumn('protected_by', 'text', (c) => c.notNull())
        .addColumn('protected_at', big, (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_protections_pk', ['tenant', 'backup_id'])
        .execute();
      await db.schema
        .createTable('backup_retention_deletions')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('backup_id', text, (c) => c.notNull())
        .addColumn('operation_id', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('key_prefix', text, (c) => c.notNull())
        .addColumn('backup_name', 'text', (c) => c.notNull())
        .addColumn('byte_size', big, (c) => c.notNull())
        .addColumn('claimed_at', big, (c) => c.notNull())
        .addColumn('deleted_at', big)
        .addPrimaryKeyConstraint('backup_retention_deletions_pk', ['tenant', 'backup_id'])
        .execute();
      await db.schema
        .createIndex('backup_retention_deletions_by_scope')
        .on('backup_retention_deletions')
        .columns(['tenant', 'tree_name', 'key_prefix', 'deleted_at'])
        .execute();
    },
  };
}
