import { sql } from 'kysely';
import type { TreeDb } from './tree-db.js';

/**
 * Planner statistics of the `entries` table after bulk loads (issue 37). A restore or an import
 * can multiply the table in minutes; until statistics catch up, the planner prices plans for the
 * table it last measured (or for an empty one), and a capture or a listing can get a sequential
 * scan and a sort instead of a key-order index walk. Autovacuum may be off or slow, and SQLite
 * has none, so the server analyzes `entries` itself: after a restore, and once writes since its
 * last analyze pass a threshold (PutEntries, which imports use). Always after the write's own
 * transaction, never inside it, and outside the caller's wait where the caller is a request.
 */

/** Rows written to `entries` since this process last analyzed it that call for a new analyze. */
export const ANALYZE_AFTER_ROWS = 10_000;

/**
 * …or this share of the table as that analyze measured it, when larger: a 10 M-entry table is
 * not re-analyzed every 10 000 rows (PostgreSQL's autovacuum uses the same 10 %).
 */
const ANALYZE_AFTER_SHARE = 0.1;

/** Rows SQLite's ANALYZE samples per index (PRAGMA analysis_limit) instead of reading all. */
const SQLITE_ANALYSIS_LIMIT = 1000;

/** The indexes of `entries` whose statistics SQLite's planner reads. */
const SQLITE_ENTRY_INDEXES = ['sqlite_autoindex_entries_1', 'entries_by_sequence'];

interface EntryStatistics {
  /** Rows noted since the last analyze started. */
  writtenSince: number;
  /** Rows of `entries` as the last analyze measured them. */
  rowsAtAnalyze: number;
  /** An analyze queued behind the running one, which new requests join. */
  queued: Promise<void> | undefined;
  /** Settles when every analyze asked for so far has ended. */
  settled: Promise<void>;
}

/** Per database (its root Kysely instance), for this process. */
const byDatabase = new WeakMap<object, EntryStatistics>();

function statisticsOf(handle: TreeDb): EntryStatistics {
  let statistics = byDatabase.get(handle.db);
  if (!statistics) {
    statistics = {
      writtenSince: 0,
      rowsAtAnalyze: 0,
      queued: undefined,
      settled: Promise.resolve(),
    };
    byDatabase.set(handle.db, statistics);
  }
  return statistics;
}

/**
 * Counts `rows` written to `entries` through `storage` (the root handle, after the write
 * committed) and starts an analyze in the background once enough have been written.
 */
export function noteEntriesWritten(storage: TreeDb, rows: number): void {
  const statistics = statisticsOf(storage);
  statistics.writtenSince += rows;
  const threshold = Math.max(ANALYZE_AFTER_ROWS, statistics.rowsAtAnalyze * ANALYZE_AFTER_SHARE);
  if (statistics.writtenSince >= threshold) void refreshEntryStatistics(storage);
}

/**
 * Analyzes `entries` through `storage` (the root handle, outside any transaction). An analyze
 * already running may have sampled before the caller's rows committed, so this one queues
 * behind it; callers arriving while it waits join it. Never rejects: statistics are an
 * optimisation, and a failed analyze (the database closing) leaves them as they were.
 */
export function refreshEntryStatistics(storage: TreeDb): Promise<void> {
  const statistics = statisticsOf(storage);
  if (statistics.queued) return statistics.queued;
  const run = statistics.settled.then(async () => {
    statistics.queued = undefined;
    statistics.writtenSince = 0;
    try {
      statistics.rowsAtAnalyze = await analyzeEntries(storage);
    } catch {
      // Left to autovacuum (PostgreSQL) or the next threshold.
    }
  });
  statistics.queued = run;
  statistics.settled = run;
  return run;
}

/** Settles once every analyze asked for so far has ended (tests; an orderly close). */
export function entryStatisticsSettled(storage: TreeDb): Promise<void> {
  return statisticsOf(storage).settled;
}

/** Runs the dialect's ANALYZE of `entries`; returns the table's rows as it measured them. */
async function analyzeEntries(storage: TreeDb): Promise<number> {
  if (storage.dialect === 'postgres') {
    await sql`analyze entries`.execute(storage.db);
    const { rows } = await sql<{
      reltuples: number | string;
    }>`select reltuples from pg_class where oid = 'entries'::regclass`.execute(storage.db);
    return Math.max(0, Number(rows[0]?.reltuples ?? 0));
  }
  return writeSqliteEntryStatistics(storage);
}

/**
 * SQLite: writes the statistics a sampled ANALYZE (analysis_limit) of `entries` would write, and
 * has the planner reload them. Even sampled, ANALYZE walks every page of the table to count its
 * rows, in one synchronous call: about 0.2 s a million entries when cached, seconds at 5 M cold,
 * during which no other call is answered (issue 37). The kept counts (migration 0025) know the
 * live rows already, and a sample's per-index figures are fixed by the limit (each index's
 * physical-tree prefix seen as limit + 1 rows, each key unique), so nothing here reads the table.
 * A sampled ANALYZE writes no sqlite_stat4 rows for the table either: stale ones are removed.
 */
async function writeSqliteEntryStatistics(storage: TreeDb): Promise<number> {
  const { rows } = await sql<{
    n: number | null;
  }>`select sum(live_entries) as n from physical_trees`.execute(storage.db);
  const entries = Math.max(1, Number(rows[0]?.n ?? 0));
  const stat = `${entries} ${Math.min(entries, SQLITE_ANALYSIS_LIMIT + 1)} 1`;
  // Creates sqlite_stat1 (and sqlite_stat4) when the database was never analyzed; the schema
  // table is a few rows.
  await sql`analyze sqlite_schema`.execute(storage.db);
  await storage.db.transaction().execute(async (trx) => {
    await sql`delete from sqlite_stat1 where tbl = 'entries'`.execute(trx);
    const { rows: stat4 } = await sql<{
      name: string;
    }>`select name from sqlite_master where name = 'sqlite_stat4'`.execute(trx);
    if (stat4.length > 0) await sql`delete from sqlite_stat4 where tbl = 'entries'`.execute(trx);
    for (const index of SQLITE_ENTRY_INDEXES) {
      await sql`insert into sqlite_stat1 (tbl, idx, stat) values ('entries', ${index}, ${stat})`.execute(
        trx,
      );
    }
  });
  // Loads what was written into the planner of this connection (and of connections opened later).
  await sql`analyze sqlite_schema`.execute(storage.db);
  return entries;
}
