import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Storage } from '../database.js';
import type { Database } from '../database-schema.js';
import type { TreeDb } from '../data/tree-db.js';

/**
 * Runs `fn` against ONE consistent snapshot of the whole database, without blocking writers, so a
 * capture sees every tree at one sequence point however long it reads (DESIGN.md §5; the snapshot
 * point is the tree's last_sequence read inside the snapshot).
 *
 * - PostgreSQL: a READ ONLY, REPEATABLE READ transaction on one pooled connection. Its snapshot
 *   is taken at the first statement; later commits are invisible to it.
 * - SQLite: a second, read-only connection to the same file in a deferred transaction. In WAL mode
 *   a reader keeps the snapshot of its first read until it ends, while the server's own
 *   connection keeps writing. A read transaction on the server's connection would instead stall
 *   every other query of this process (Kysely serialises one connection), including the
 *   operation runner's lease renewals.
 */
export async function withReadSnapshot<T>(
  storage: Storage,
  fn: (snapshot: TreeDb) => Promise<T>,
): Promise<T> {
  if (storage.dialect === 'postgres') {
    return storage.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute(async (trx) => {
        // Exported so a COPY stream on another connection can read in this same snapshot.
        const exported = await sql<{ id: string }>`select pg_export_snapshot() as id`.execute(trx);
        return fn({
          db: trx,
          dialect: 'postgres',
          postgresPool: storage.postgresPool,
          postgresSnapshot: exported.rows[0]?.id,
        });
      });
  }
  if (!storage.sqliteFile) throw new Error('SQLite storage without a file cannot be snapshotted');
  const database = new SQLite(storage.sqliteFile, { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  try {
    return await reader
      .transaction()
      .execute((trx) =>
        fn({ db: trx, dialect: 'sqlite', sqlitePrepare: (text) => database.prepare(text) }),
      );
  } finally {
    await reader.destroy();
  }
}
