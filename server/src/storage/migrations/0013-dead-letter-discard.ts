import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { int64 } from './column-types.js';

/**
 * Dead-letter discard: who discarded a letter, when and why. A discarded letter is no longer
 * pending (no listing, count or replay takes it) and is deleted once it is older than the audit
 * retention, by the audit sweep; the index serves that sweep.
 */
export function deadLetterDiscard(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const table = () => db.schema.alterTable('schema_dead_letters');
      await table().addColumn('discarded_at', int64(dialect)).execute();
      await table().addColumn('discarded_by', 'text').execute();
      await table().addColumn('discard_note', 'text').execute();
      await db.schema
        .createIndex('schema_dead_letters_by_discarded_at')
        .on('schema_dead_letters')
        .column('discarded_at')
        .execute();
    },
  };
}
