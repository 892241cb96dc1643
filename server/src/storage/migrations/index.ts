import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../database.js';
import { treesEntriesOperations } from './0001-trees-entries-operations.js';

/**
 * Every migration, in order. Names sort in apply order; a released migration is never edited
 * (add a new one instead).
 */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-trees-entries-operations': treesEntriesOperations(dialect),
  };
  return { getMigrations: async () => migrations };
}
