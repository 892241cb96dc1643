import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import SQLite, { type Statement as SqliteStatement } from 'better-sqlite3';
import { Kysely, Migrator } from 'kysely';
import pg from 'pg';
import { SchemaScopedPostgresDialect } from './scoped-introspector.js';
import { migrationProvider } from './migrations/index.js';
import type { PostgresLocation } from './pg-notifications.js';
import type { TreeDb } from './data/tree-db.js';
import type { Database } from './database-schema.js';
import { ImmediateSqliteDialect } from './sqlite-immediate-dialect.js';
import { withStatementCache } from './sqlite-statement-cache.js';

export type Dialect = 'sqlite' | 'postgres';

export interface StorageOptions {
  /** Directory of the SQLite file (STORE_DATA_DIR). */
  dataDir: string;
  /** postgres://… switches storage to PostgreSQL (DATABASE_URL). */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to use (created when missing); tests give each run its own. */
  postgresSchema?: string | undefined;
  /** Connection pool size for PostgreSQL. */
  poolSize?: number | undefined;
}

/** An open database with its migrations applied. */
export interface Storage extends TreeDb {
  /** The SQLite file (SQLite only): backup captures open their own snapshot reader on it. */
  sqliteFile?: string;
  /**
   * SQLite only: a number that changes whenever ANOTHER connection (another process: the token
   * CLI, a second server) has committed since the last call (PRAGMA data_version).
   */
  sqliteDataVersion?: () => number;
  /** PostgreSQL only: where it lives, for connections outside the pool (LISTEN). */
  postgres?: PostgresLocation;
  close(): Promise<void>;
}

/** The SQLite store's file name inside the data directory. */
export const SQLITE_FILE = 'store.sqlite';

/** Opens the configured database and applies pending migrations. */
export async function openStorage(options: StorageOptions): Promise<Storage> {
  const storage = options.databaseUrl ? await openPostgres(options) : openSqlite(options.dataDir);
  try {
    await migrate(storage, options.databaseUrl ? options.postgresSchema : undefined);
  } catch (error) {
    await storage.close();
    throw error;
  }
  return storage;
}

function openSqlite(dataDir: string): Storage {
  const sqliteFile = join(dataDir, SQLITE_FILE);
  createPrivately(dataDir, sqliteFile);
  const database = new SQLite(sqliteFile);
  // WAL lets readers run beside the writer; FULL sync because the catalog is what a user trusts
  // after a crash.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  const cached = withStatementCache(database);
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: cached }) });
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  return {
    db,
    dialect: 'sqlite',
    sqliteFile,
    sqlitePrepare: (text) => cached.prepare(text) as SqliteStatement,
    sqliteDataVersion: () => dataVersion.get() as number,
    close: () => db.destroy(),
  };
}

/**
 * The database holds every tenant's data and the token hashes: 0700 directory, 0600 file. SQLite
 * gives its -wal and -shm files the database file's mode, so creating the file first is enough.
 * Files made by an earlier version are tightened too, where this user may (best effort).
 */
function createPrivately(dataDir: string, sqliteFile: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!existsSync(sqliteFile)) closeSync(openSync(sqliteFile, 'a', 0o600));
  for (const [path, mode] of [
    [dataDir, 0o700],
    [sqliteFile, 0o600],
    [`${sqliteFile}-wal`, 0o600],
    [`${sqliteFile}-shm`, 0o600],
  ] as const) {
    try {
      if (existsSync(path)) chmodSync(path, mode);
    } catch {
      // Not ours to change (a shared mount): the new files are still created private.
    }
  }
}

async function openPostgres(options: StorageOptions): Promise<Storage> {
  const schema = options.postgresSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`postgres schema name ${JSON.stringify(schema)} is not a plain identifier`);
  }
  if (schema) {
    const admin = new pg.Client({ connectionString: options.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`create schema if not exists ${schema}`);
    } catch (error) {
      // Two replicas creating the schema at once: the loser sees a duplicate; that is fine.
      const code = (error as { code?: string }).code;
      if (code !== '42P06' && code !== '23505') throw error;
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    // int8 as a JS number: sequences, sizes and epoch-ms times all stay below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20
          ? (value: string) => Number(value)
          : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<Database>({
    dialect: new SchemaScopedPostgresDialect({ pool }, schema || undefined),
  });
  return {
    db,
    dialect: 'postgres',
    postgresPool: pool,
    postgres: { connectionString: options.databaseUrl as string, schema },
    close: () => db.destroy(),
  };
}

async function migrate(storage: Storage, schema: string | undefined): Promise<void> {
  // Kysely's migrator takes a database lock itself (an advisory lock on PostgreSQL), so replicas
  // that start together apply each migration once. Its bookkeeping tables must live in our
  // schema: without the schema named, Kysely finds another schema's tables and skips creating them.
  const migrator = new Migrator({
    db: storage.db,
    provider: migrationProvider(storage.dialect),
    ...(schema !== undefined && { migrationTableSchema: schema }),
  });
  for (let attempt = 1; ; attempt++) {
    const { error } = await migrator.migrateToLatest();
    if (!error) return;
    if (attempt < MIGRATE_ATTEMPTS && isConcurrentSchemaDrop(error, schema)) {
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
      continue;
    }
    throw error instanceof Error ? error : new Error(String(error));
  }
}

const MIGRATE_ATTEMPTS = 5;

/**
 * Kysely looks for its bookkeeping table among every table of the database, through catalog
 * functions that fail when another session drops a schema or table mid-query ("schema … does not
 * exist" 3F000, "relation … does not exist" 42P01, "cache lookup failed" XX000): another
 * application, or another deployment's replicas, on a shared database. Nothing was applied then,
 * so the migration is tried again, unless the object named is in our own schema.
 */
const CATALOG_RACE_CODES = new Set(['3F000', '42P01', 'XX000']);

function isConcurrentSchemaDrop(error: unknown, ours: string | undefined): boolean {
  const { code, message } = error as { code?: string; message?: string };
  if (!code || !CATALOG_RACE_CODES.has(code)) return false;
  return ours === undefined || !String(message).includes(`"${ours}`);
}
