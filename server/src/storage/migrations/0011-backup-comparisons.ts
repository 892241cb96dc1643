import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText } from './column-types.js';

/**
 * The differences a restore preview or backup diff found (issue 16), one row per key, so the
 * console pages through them without the comparison holding them in memory. Keyed by the
 * comparison's operation id; unchanged keys are only counted (in the operation's result).
 */
export function backupComparisons(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('backup_comparison_differences')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('operation_id', text, (c) => c.notNull())
        .addColumn('key', text, (c) => c.notNull())
        .addColumn('change', 'text', (c) => c.notNull())
        .addColumn('before_json', 'text')
        .addColumn('after_json', 'text')
        .addColumn('before_schema_version', 'integer', (c) => c.notNull())
        .addColumn('after_schema_version', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('backup_comparison_differences_pk', [
          'tenant',
          'operation_id',
          'key',
        ])
        .execute();
    },
  };
}
