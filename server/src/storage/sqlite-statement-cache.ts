import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';

/** Distinct SQL texts kept prepared; Kysely's queries are a few hundred shapes at most. */
const CACHE_SIZE = 500;

/**
 * The database as Kysely's SqliteDialect sees it, with prepared statements reused per SQL text.
 * Kysely prepares every query anew, and on a status poll preparing cost more than running the
 * two small queries it makes. Statements are kept in least-recently-used order; a statement
 * still busy (a stream iterating it) is never handed out twice, a fresh one is prepared instead.
 * SQLite re-prepares a cached statement by itself after a schema change (migrations).
 */
export function withStatementCache(database: SqliteDatabase): KyselySqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare: (sql: string) => {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        // Re-insert: Map keeps insertion order, so the first key is the least recently used.
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      if (!cached) {
        cache.set(sql, statement);
        if (cache.size > CACHE_SIZE) {
          const oldest = cache.keys().next().value;
          if (oldest !== undefined) cache.delete(oldest);
        }
      }
      return statement;
    },
  };
}
