import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { int64 } from './column-types.js';

/**
 * A backup's stored bytes as a column of its catalog row, filled from its manifest's byteSize
 * (0 when a manifest has none). Retention and catalog growth read it for every backup of a
 * scope; pulling it out of the manifest JSON row by row made a 100 000-backup preview slow.
 * Retention's deletion records also keep when their backup was created (NULL for older
 * records): catalog growth counts a deleted backup from its creation to its deletion.
 */
export function backupByteSize(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('backups')
        .addColumn('byte_size', int64(dialect), (c) => c.notNull().defaultTo(0))
        .execute();
      const fromManifest =
        dialect === 'postgres'
          ? sql`coalesce((manifest_json::json->>'byteSize')::bigint, 0)`
          : sql`coalesce(json_extract(manifest_json, '$.byteSize'), 0)`;
      await sql`update backups set byte_size = ${fromManifest}`.execute(db);
      await db.schema
        .alterTable('backup_retention_deletions')
        .addColumn('backup_created_at', int64(dialect))
        .execute();
    },
  };
}
