import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * A backup's content digest (issue 36: `sum-sha256:<hex>:<count>`, the scope's live content as
 * it stood after the backup) as a column of its catalog row, so drills and "never proven" views
 * find it without parsing manifests. Filled from the manifest where it holds one; rows captured
 * before digests existed stay NULL, which the API reports as "no content digest".
 */
export function backupContentDigest(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('backups').addColumn('content_digest', 'text').execute();
      const fromManifest =
        dialect === 'postgres'
          ? sql`manifest_json::json->>'contentDigest'`
          : sql`json_extract(manifest_json, '$.contentDigest')`;
      await sql`update backups set content_digest = ${fromManifest}`.execute(db);
    },
  };
}
