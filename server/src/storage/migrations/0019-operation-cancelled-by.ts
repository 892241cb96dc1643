import type { Kysely, Migration } from 'kysely';

/**
 * Who asked to cancel an operation (the caller's subject, like created_by), so a console can say
 * "Cancelled by <who>" for any cancel. NULL until someone cancels, and for rows from before.
 */
export function operationCancelledBy(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('operations').addColumn('cancelled_by', 'text').execute();
    },
  };
}
