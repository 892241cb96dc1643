import type { Kysely, Migration } from 'kysely';

/**
 * The name of an audit record's target as it was when the call was made, for a target the call
 * destroys (a backup deleted by hand: its catalog row goes, so no later lookup can name it).
 * NULL for every other record, and for records stored before this column existed: those are
 * named when the trail is read.
 */
export function auditTargetName(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('audit_records').addColumn('target_name', 'text').execute();
    },
  };
}
