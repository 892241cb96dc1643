import { existsSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { ServerConfig } from '../config/settings.js';
import { SQLITE_FILE } from '../storage/database.js';

/** The table a store has once the server's migrations ran: the one the token CLI works on. */
const TOKEN_TABLE = 'api_tokens';

type StoreSettings = Pick<ServerConfig, 'dataDir' | 'databaseUrl' | 'postgresSchema'>;

/**
 * Why the configured storage holds no store, or undefined when it does. The token CLI checks this
 * before opening storage: opening creates and migrates an empty store, and a token written there
 * is one the running server (on its own store) refuses as unknown. Nothing is created here.
 * `env` tells a setting the operator gave from a default.
 */
export async function missingStoreReason(
  config: StoreSettings,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  return config.databaseUrl
    ? missingPostgresStore(config.databaseUrl, config.postgresSchema)
    : missingSqliteStore(config.dataDir, env.STORE_DATA_DIR !== undefined);
}

function missingSqliteStore(dataDir: string, fromEnv: boolean): string | undefined {
  const file = join(dataDir, SQLITE_FILE);
  const where = fromEnv ? `STORE_DATA_DIR=${dataDir}` : `the default data directory ${dataDir}`;
  const advice =
    "The server's default is ./data (from the directory it starts in); start the server " +
    'once on this directory, or set STORE_DATA_DIR to the one the server uses.';
  if (!existsSync(file)) return `No store in ${where} (no ${SQLITE_FILE}). ${advice}`;
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const table = database
      .prepare("select name from sqlite_master where type = 'table' and name = ?")
      .get(TOKEN_TABLE);
    if (table !== undefined) return undefined;
  } finally {
    database.close();
  }
  return `No store in ${where} (${SQLITE_FILE} has no ${TOKEN_TABLE} table). ${advice}`;
}

async function missingPostgresStore(
  databaseUrl: string,
  schema: string | undefined,
): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    // to_regclass: NULL for a table (or schema) that does not exist, without creating either.
    const name = schema === undefined ? TOKEN_TABLE : `${schema}.${TOKEN_TABLE}`;
    const { rows } = await client.query<{ found: string | null }>(
      'select to_regclass($1)::text as found',
      [name],
    );
    if (rows[0]?.found) return undefined;
  } finally {
    await client.end();
  }
  const where =
    `DATABASE_URL=${withoutPassword(databaseUrl)}` +
    (schema === undefined ? ' (the search path)' : `, STORE_PG_SCHEMA=${schema}`);
  return (
    `No store in ${where}: no ${TOKEN_TABLE} table, the server's migrations never ran there. ` +
    "The server's default schema is the search path's (STORE_PG_SCHEMA unset); start the " +
    'server once on this database and schema, or set DATABASE_URL / STORE_PG_SCHEMA to the ones it uses.'
  );
}

/** The URL as it may be printed: a password in it never is. */
function withoutPassword(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return '(unparsable URL)';
  }
}
