import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { int64 } from './column-types.js';

/**
 * Dead-letter replay (issue 16): who replayed a letter, when, with what outcome (WRITTEN is
 * final, REFUSED leaves the letter pending with the new reasons), the written entry's sequence
 * and the value replayed when it was edited. Replayed letters are kept for audit.
 */
export function deadLetterReplay(dialect: Dialect): Migration {
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('schema_dead_letters')
        .addColumn('replay_outcome', 'text')
        .execute();
      await db.schema.alterTable('schema_dead_letters').addColumn('replayed_at', big).execute();
      await db.schema.alterTable('schema_dead_letters').addColumn('replayed_by', 'text').execute();
      await db.schema.alterTable('schema_dead_letters').addColumn('replay_sequence', big).execute();
      await db.schema
        .alterTable('schema_dead_letters')
        .addColumn('replayed_value_json', 'text')
        .execute();
      await db.schema
        .alterTable('schema_dead_letters')
        .addColumn('replay_errors_json', 'text')
        .execute();
    },
  };
}
