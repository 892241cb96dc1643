import type { Kysely, Migration } from 'kysely';

/**
 * An index holding every column a retention preview reads of a scope's backups (tree, key
 * prefix, time, id, base, set, size), so a scope of 100 000 backups is read from the index alone
 * instead of one table lookup per backup through the tenant's creation-time index.
 */
export function backupsByScope(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('backups_by_scope')
        .on('backups')
        .columns([
          'tenant',
          'tree_name',
          'key_prefix',
          'created_at',
          'id',
          'base_backup_id',
          'set_id',
          'byte_size',
        ])
        .execute();
    },
  };
}
