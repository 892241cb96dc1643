import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../database.js';
import { int64 } from './column-types.js';

/**
 * A restore's installed sequence: the restored physical tree's sequence high-water mark when the
 * restore made it visible. Every entry above it was written into the tree after the restore, so
 * RevertRestore can count the writes it would discard (and refuse them unless acknowledged).
 * Null for restores stored before this column; revert then falls back to the replaced tree's
 * high-water mark (restore-install-store.ts, `writesSinceRestore`).
 */
export function restoreInstalledSequence(dialect: Dialect): Migration {
  const big = int64(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('backup_restores').addColumn('installed_sequence', big).execute();
    },
  };
}
