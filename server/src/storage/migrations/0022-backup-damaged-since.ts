import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { int64 } from './column-types.js';

/**
 * When a backup was first found damaged (CORRUPT, MISSING or DEGRADED) by a check that has not
 * found it well since: retention keeps such a backup by a reason of its own that says since when.
 * last_verified_at moves with every check, so a damaged backup checked again would seem newly
 * broken. Rows damaged before this column existed start from their last check. A partial index
 * holds the damaged rows only: a preview reads them per scope, and a scope may hold 100 000
 * healthy backups the scope index does not carry the status of.
 */
export function backupDamagedSince(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('backups')
        .addColumn('health_damaged_since', int64(dialect))
        .execute();
      await sql`update backups set health_damaged_since = last_verified_at
        where last_health_status in ('CORRUPT', 'MISSING', 'DEGRADED')`.execute(db);
      await db.schema
        .createIndex('backups_damaged')
        .on('backups')
        .columns(['tenant', 'tree_name'])
        .where(sql.ref('last_health_status'), 'in', sql`('CORRUPT', 'MISSING', 'DEGRADED')`)
        .execute();
    },
  };
}
