import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/**
 * The schema engine's tables: policies and version configs per (tenant, tree), dead letters in
 * arrival order, and the latest remediation or migration report per tree.
 */
export function schemaTables(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('schema_policies')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('json_schema', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('version', big, (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('updated_by', 'text', (c) => c.notNull().defaultTo(''))
        .addPrimaryKeyConstraint('schema_policies_pk', ['tenant', 'tree_name'])
        .execute();

      await db.schema
        .createTable('schema_version_configs')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('current_version', big, (c) => c.notNull())
        .addColumn('target_version', big, (c) => c.notNull())
        .addColumn('migrations_json', 'text', (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('schema_version_configs_pk', ['tenant', 'tree_name'])
        .execute();

      // The id orders dead letters by arrival: SQLite's rowid alias, PostgreSQL's sequence.
      await db.schema
        .createTable('schema_dead_letters')
        .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
          dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
        )
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('key', text, (c) => c.notNull())
        .addColumn('value_json', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('errors_json', 'text', (c) => c.notNull())
        .addColumn('source_operation_id', 'text')
        .addColumn('schema_version', big, (c) => c.notNull().defaultTo(0))
        .addColumn('dead_lettered_at', big, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('schema_dead_letters_by_tree')
        .on('schema_dead_letters')
        .columns(['tenant', 'tree_name', 'id'])
        .execute();

      await db.schema
        .createTable('schema_reports')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text')
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('scanned', big, (c) => c.notNull().defaultTo(0))
        .addColumn('already_compliant', big, (c) => c.notNull().defaultTo(0))
        .addColumn('transformed', big, (c) => c.notNull().defaultTo(0))
        .addColumn('dead_lettered', big, (c) => c.notNull().defaultTo(0))
        .addColumn('failed', big, (c) => c.notNull().defaultTo(0))
        .addColumn('from_version', big, (c) => c.notNull().defaultTo(0))
        .addColumn('to_version', big, (c) => c.notNull().defaultTo(0))
        .addColumn('started_at', big, (c) => c.notNull())
        .addColumn('finished_at', big)
        .addPrimaryKeyConstraint('schema_reports_pk', ['tenant', 'tree_name'])
        .execute();
    },
  };
}
