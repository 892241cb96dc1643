import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { byteOrderedText } from './column-types.js';

/**
 * The operation that captured each backup, so recovery can tell a capture interrupted after it
 * published its backups (done: the operation succeeds) from one interrupted before (it fails).
 * Null for backups catalogued before this column and for rows a catalog rebuild restores.
 */
export function backupOperation(dialect: Dialect): Migration {
  const text = byteOrderedText(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('backups').addColumn('operation_id', text).execute();
      await db.schema
        .createIndex('backups_by_operation')
        .on('backups')
        .columns(['tenant', 'operation_id'])
        .execute();
    },
  };
}
