import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStorage, type Dialect, type Storage } from '../../src/storage/database.js';

/** Both databases the server supports; suites run once per dialect. */
export const DIALECTS: readonly Dialect[] = ['sqlite', 'postgres'];

/** The local PostgreSQL the tests use (trust auth, database `test`). */
export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Where a test's storage lives, so other processes (a second server) can open the same one. */
export interface TestStorageLocation {
  dataDir: string;
  databaseUrl?: string;
  postgresSchema?: string;
}

/** A fresh, empty location: a temp dir for SQLite, a new schema for PostgreSQL. */
export function newStorageLocation(dialect: Dialect): TestStorageLocation {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-test-'));
  if (dialect === 'sqlite') return { dataDir };
  return {
    dataDir,
    databaseUrl: TEST_DATABASE_URL,
    postgresSchema: `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`,
  };
}

/** Removes what newStorageLocation made. */
export async function removeStorageLocation(location: TestStorageLocation): Promise<void> {
  rmSync(location.dataDir, { recursive: true, force: true });
  if (location.postgresSchema) {
    const client = new pg.Client({ connectionString: location.databaseUrl });
    await client.connect();
    try {
      await client.query(`drop schema if exists ${location.postgresSchema} cascade`);
    } finally {
      await client.end();
    }
  }
}

/** Migrated storage in a location of its own; dispose() closes and removes it. */
export type TestStorage = Storage & { location: TestStorageLocation; dispose(): Promise<void> };

/** Opens migrated storage in a fresh location; dispose() closes and removes it. */
export async function openTestStorage(dialect: Dialect): Promise<TestStorage> {
  const location = newStorageLocation(dialect);
  let storage: Storage;
  try {
    storage = await openStorage(location);
  } catch (error) {
    await removeStorageLocation(location);
    throw error;
  }
  return {
    ...storage,
    location,
    async dispose() {
      await storage.close();
      await removeStorageLocation(location);
    },
  };
}
