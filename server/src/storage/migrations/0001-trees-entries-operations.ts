import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText, int64 } from './column-types.js';

/** Trees with their physical indirection, entries with tombstones, and tracked operations. */
export function treesEntriesOperations(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('trees')
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('physical_tree_id', text, (c) => c.notNull())
        .addColumn('write_locked_by', text)
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('updated_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('trees_pk', ['tenant', 'name'])
        .execute();

      await db.schema
        .createTable('physical_trees')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('tree_name', text, (c) => c.notNull())
        .addColumn('last_sequence', big, (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', big, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('entries')
        .addColumn('physical_tree_id', text, (c) => c.notNull())
        .addColumn('key', text, (c) => c.notNull())
        .addColumn('value_json', 'text')
        .addColumn('tombstone', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('sequence', big, (c) => c.notNull())
        .addColumn('schema_version', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', big, (c) => c.notNull())
        .addPrimaryKeyConstraint('entries_pk', ['physical_tree_id', 'key'])
        .execute();
      await db.schema
        .createIndex('entries_by_sequence')
        .on('entries')
        .columns(['physical_tree_id', 'sequence'])
        .execute();

      await db.schema
        .createTable('operations')
        .addColumn('id', text, (c) => c.primaryKey())
        .addColumn('tenant', text, (c) => c.notNull())
        .addColumn('kind', text, (c) => c.notNull())
        .addColumn('state', text, (c) => c.notNull())
        .addColumn('target_id', text)
        .addColumn('tracking_id', text)
        .addColumn('request_json', 'text', (c) => c.notNull())
        .addColumn('request_fingerprint', text, (c) => c.notNull())
        .addColumn('progress_done', big, (c) => c.notNull().defaultTo(0))
        .addColumn('progress_total', big, (c) => c.notNull().defaultTo(0))
        .addColumn('progress_unit', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('progress_message', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('created_at', big, (c) => c.notNull())
        .addColumn('started_at', big)
        .addColumn('updated_at', big, (c) => c.notNull())
        .addColumn('finished_at', big)
        .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error_code', 'text')
        .addColumn('error_message', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('result_json', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', big)
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('checkpoint_json', 'text')
        .execute();
      await db.schema
        .createIndex('operations_by_tracking_id')
        .unique()
        .on('operations')
        .columns(['tenant', 'tracking_id'])
        .execute();
      await db.schema
        .createIndex('operations_by_tenant_created')
        .on('operations')
        .columns(['tenant', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('operations_by_state')
        .on('operations')
        .columns(['state', 'created_at'])
        .execute();
    },
  };
}
