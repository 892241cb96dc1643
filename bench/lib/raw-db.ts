// Direct driver access beside the server, for what the benchmark does not measure (seeding) and
// for the raw limits it measures against (no Kysely, no engine): better-sqlite3 on the server's
// file (WAL lets both connections work), or one pg client in the test's schema.
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { TestStorageLocation } from '../../server/test/support/test-storage.js';

/** One entries row as stored. */
export interface EntryRow {
  key: string;
  valueJson: string;
  sequence: number;
}

export interface RawDb {
  /** Inserts rows into a physical tree in ONE transaction, in large multi-row statements. */
  insertEntries(physicalTreeId: string, rows: readonly EntryRow[], now: number): Promise<void>;
  /** Calls `onPage` with the tree's rows in key order, a page at a time. */
  scanEntries(physicalTreeId: string, onPage: (rows: EntryRow[]) => Promise<void>): Promise<void>;
  /** Inserts plain rows (column → value) into `table` in one transaction. */
  insertRows(table: string, rows: readonly Record<string, unknown>[]): Promise<void>;
  /**
   * Writes the write-ahead log back into the database (SQLite wal_checkpoint, PostgreSQL
   * CHECKPOINT), so a measured write phase does not pay for the one before it.
   */
  checkpoint(): Promise<void>;
  /**
   * Brings a table's statistics and (PostgreSQL) visibility map up to date, as autovacuum does
   * soon after a bulk insert: index-only scans then read no table pages.
   */
  vacuum(table: string): Promise<void>;
  /** Runs statements in one transaction. */
  exec(statements: { sql: string; params: unknown[] }[]): Promise<void>;
  /**
   * SQLite only: the raw insert of issue 17's rows and issue 37's bound — every row of `from`
   * read by a second connection in key order and written into `into` by the driver's prepared
   * INSERT, 10 000 rows a transaction, streamed (no tree held in memory). PostgreSQL: throws.
   */
  copyTreeByPreparedInsert(from: string, into: string): Promise<void>;
  close(): Promise<void>;
}

const SCAN_PAGE = 10_000;

export async function openRawDb(location: TestStorageLocation): Promise<RawDb> {
  if (location.databaseUrl) return openPostgres(location);
  return openSqlite(`${location.dataDir}/store.sqlite`);
}

function openSqlite(file: string): RawDb {
  const db = new SQLite(file);
  // The server's own settings, so the raw limit pays the same durability.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 10000');
  const insert = db.prepare(
    `insert into entries (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
     values (?, ?, ?, 0, ?, 0, ?)`,
  );
  const insertAll = db.transaction((tree: string, rows: readonly EntryRow[], now: number) => {
    for (const r of rows) insert.run(tree, r.key, r.valueJson, r.sequence, now);
  });
  const scan = db.prepare(
    `select key, value_json as valueJson, sequence from entries
     where physical_tree_id = ? order by key`,
  );
  return {
    async insertEntries(tree, rows, now) {
      insertAll(tree, rows, now);
    },
    async scanEntries(tree, onPage) {
      let page: EntryRow[] = [];
      for (const row of scan.iterate(tree) as Iterable<EntryRow>) {
        page.push(row);
        if (page.length >= SCAN_PAGE) {
          await onPage(page);
          page = [];
        }
      }
      if (page.length > 0) await onPage(page);
    },
    async insertRows(table, rows) {
      const first = rows[0];
      if (!first) return;
      const columns = Object.keys(first);
      const statement = db.prepare(
        `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
      );
      db.transaction(() => {
        for (const row of rows) statement.run(...columns.map((c) => row[c]));
      })();
    },
    async vacuum(table) {
      db.exec(`analyze ${table}`);
    },
    async checkpoint() {
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async exec(statements) {
      db.transaction(() => {
        for (const s of statements) db.prepare(s.sql).run(...s.params);
      })();
    },
    async copyTreeByPreparedInsert(from, into) {
      const reader = new SQLite(file, { readonly: true, fileMustExist: true });
      try {
        const rows = reader
          .prepare(`select ${COPIED_COLUMNS} from entries where physical_tree_id = ? order by key`)
          .raw();
        const insertRow = db.prepare(
          `insert into entries (physical_tree_id, ${COPIED_COLUMNS}) values (?, ?, ?, ?, ?, ?, ?)`,
        );
        // Committed every RAW_INSERT_BATCH rows, as a bulk loader does: one transaction of a
        // whole tree spills its pages mid-way and ran at half the speed (60 000 rows/s at 1 M).
        const insertBatch = db.transaction((batch: unknown[][]) => {
          for (const row of batch) insertRow.run(into, ...row);
        });
        let batch: unknown[][] = [];
        for (const row of rows.iterate(from) as Iterable<unknown[]>) {
          batch.push(row);
          if (batch.length >= RAW_INSERT_BATCH) {
            insertBatch(batch);
            batch = [];
          }
        }
        insertBatch(batch);
      } finally {
        reader.close();
      }
    },
    async close() {
      db.close();
    },
  };
}

const COPIED_COLUMNS = 'key, value_json, tombstone, sequence, schema_version, updated_at';

/** Rows per transaction of the raw-insert peer. */
const RAW_INSERT_BATCH = 10_000;

async function openPostgres(location: TestStorageLocation): Promise<RawDb> {
  const client = new pg.Client({
    connectionString: location.databaseUrl,
    options: `-c search_path=${location.postgresSchema}`,
  });
  await client.connect();
  const inTransaction = async (fn: () => Promise<void>) => {
    await client.query('begin');
    try {
      await fn();
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
  };
  // Placeholders numbered the way PostgreSQL wants them: unnest turns 4 arrays into rows, so one
  // statement carries a whole batch with a constant number of parameters.
  const pgSql = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    async copyTreeByPreparedInsert() {
      throw new Error('the prepared-insert copy is the SQLite peer only');
    },
    async insertEntries(tree, rows, now) {
      await inTransaction(async () => {
        for (let start = 0; start < rows.length; start += SCAN_PAGE) {
          const batch = rows.slice(start, start + SCAN_PAGE);
          await client.query(
            `insert into entries (physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at)
             select $1, k, v, 0, s, 0, $2 from unnest($3::text[], $4::text[], $5::bigint[]) as u(k, v, s)`,
            [
              tree,
              now,
              batch.map((r) => r.key),
              batch.map((r) => r.valueJson),
              batch.map((r) => r.sequence),
            ],
          );
        }
      });
    },
    async scanEntries(tree, onPage) {
      let after: string | null = null;
      for (;;) {
        // Two statements rather than `($2 is null or key > $2)`, which hides the range from the
        // planner and turns every page into a scan of the whole tree.
        const result: pg.QueryResult<{ key: string; valuejson: string; sequence: string }> =
          after === null
            ? await client.query(
                `select key, value_json as valuejson, sequence from entries
                 where physical_tree_id = $1 order by key limit $2`,
                [tree, SCAN_PAGE],
              )
            : await client.query(
                `select key, value_json as valuejson, sequence from entries
                 where physical_tree_id = $1 and key > $2 order by key limit $3`,
                [tree, after, SCAN_PAGE],
              );
        const page = result.rows.map((r) => ({
          key: r.key,
          valueJson: r.valuejson,
          sequence: Number(r.sequence),
        }));
        if (page.length > 0) await onPage(page);
        if (page.length < SCAN_PAGE) return;
        after = page[page.length - 1]?.key ?? null;
      }
    },
    async insertRows(table, rows) {
      const first = rows[0];
      if (!first) return;
      const columns = Object.keys(first);
      // PostgreSQL takes at most 65 535 parameters per statement.
      const perStatement = Math.floor(60_000 / columns.length);
      await inTransaction(async () => {
        for (let start = 0; start < rows.length; start += perStatement) {
          const batch = rows.slice(start, start + perStatement);
          const params: unknown[] = [];
          const tuples = batch.map((row) => {
            const marks = columns.map((c) => {
              params.push(row[c]);
              return `$${params.length}`;
            });
            return `(${marks.join(', ')})`;
          });
          await client.query(
            `insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`,
            params,
          );
        }
      });
    },
    async vacuum(table) {
      await client.query(`vacuum analyze ${table}`);
    },
    async checkpoint() {
      await client.query('checkpoint');
    },
    async exec(statements) {
      await inTransaction(async () => {
        for (const s of statements) await client.query(pgSql(s.sql), s.params);
      });
    },
    async close() {
      await client.end();
    },
  };
}
