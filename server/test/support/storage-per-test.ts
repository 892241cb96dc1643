import { afterEach } from 'vitest';
import type { Dialect } from '../../src/storage/database.js';
import { openTestStorage, type TestStorage } from './test-storage.js';

/**
 * The temp database of a storage suite, in one place: the returned `open()` gives migrated
 * storage in a fresh location (a temp dir for SQLite, a new schema for PostgreSQL), and every
 * storage a test opened is closed and removed after that test. Call it inside the suite (its
 * afterEach belongs to that suite); call `open()` in a beforeEach or in the test itself.
 */
export function storagePerTest(dialect: Dialect): () => Promise<TestStorage> {
  const opened: TestStorage[] = [];
  afterEach(async () => {
    for (const storage of opened.splice(0)) await storage.dispose();
  });
  return async () => {
    const storage = await openTestStorage(dialect);
    opened.push(storage);
    return storage;
  };
}
