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
  if (statistics.writtenSince >= analyzeThreshold(statistics.rowsAtAnalyze)) {
    void refreshEntryStatistics(storage);
  }
}

/** Rows written since an analyze that measured `rowsAtAnalyze` rows that call for another. */
const analyzeThreshold = (rowsAtAnalyze: number) =>
  Math.max(ANALYZE_AFTER_ROWS, rowsAtAnalyze * ANALYZE_AFTER_SHARE);

/**
 * At start: statistics left stale by an earlier process. A bulk load's analyze runs after its
 * commit, in the background, and the count of rows written since is this process's memory: a
 * process killed between the two, or stopped before its writes reached the threshold, leaves
 * `entries` measured smaller than it is, and with autovacuum off nothing else would notice. Reads
 * what the database itself knows (PostgreSQL: never analyzed, or rows changed since the last
 * analyze, from pg_stat_user_tables; SQLite: the row count sqlite_stat1 holds against the kept
 * counts), analyzes past the same threshold as noteEntriesWritten, and otherwise takes the size
 * measured as the base of this process's next threshold. Never rejects; true when it analyzed.
 */
export async function refreshStaleEntryStatistics(storage: TreeDb): Promise<boolean> {
  try {
    const measured = await measuredEntryStatistics(storage);
    if (!measured.stale) {
      const statistics = statisticsOf(storage);
      if (statistics.rowsAtAnalyze === 0) statistics.rowsAtAnalyze = measured.rowsAtAnalyze;
      return false;
    }
    await refreshEntryStatistics(storage);
    return true;
  } catch {
    // The database closing under a start that failed: nothing to refresh.
    return false;
  }
}

async function measuredEntryStatistics(
  storage: TreeDb,
): Promise<{ stale: boolean; rowsAtAnalyze: number }> {
  const { rows: present } = await sql<{
    found: boolean | number;
  }>`select exists (select 1 from entries) as found`.execute(storage.db);
  // PostgreSQL answers true, SQLite 1.
  const hasRows = Number(present[0]?.found ?? 0) === 1;
  if (storage.dialect === 'postgres') {
    const { rows } = await sql<{
      reltuples: number | string;
      changed: number | string | null;
      analyzed: boolean;
    }>`select c.reltuples, s.n_mod_since_analyze as changed,
              (s.last_analyze is not null or s.last_autoanalyze is not null) as analyzed
         from pg_class c left join pg_stat_user_tables s on s.relid = c.oid
        where c.oid = 'entries'::regclass`.execute(storage.db);
    const row = rows[0];
    // -1: never vacuumed nor analyzed. A crash resets the activity counters, so "never analyzed"
    // also covers a restart after one.
    const reltuples = Number(row?.reltuples ?? -1);
    const rowsAtAnalyze = Math.max(0, reltuples);
    const stale =
      hasRows &&
      (reltuples < 0 ||
        !row?.analyzed ||
        Number(row.changed ?? 0) >= analyzeThreshold(rowsAtAnalyze));
    return { stale, rowsAtAnalyze };
  }
  const { rows: tables } = await sql<{
    name: string;
  }>`select name from sqlite_master where name = 'sqlite_stat1'`.execute(storage.db);
  const { rows: kept } = await sql<{
    n: number | null;
  }>`select sum(live_entries) as n from physical_trees`.execute(storage.db);
  const keptRows = Number(kept[0]?.n ?? 0);
  let statRows: number | undefined;
  if (tables.length > 0) {
    const { rows: stats } = await sql<{
      stat: string;
    }>`select stat from sqlite_stat1 where tbl = 'entries' and idx = ${SQLITE_ENTRY_INDEXES[0]}`.execute(
      storage.db,
    );
    const first = stats[0]?.stat.split(' ')[0];
    if (first !== undefined) statRows = Number(first);
  }
  const stale =
    hasRows &&
    (statRows === undefined || Math.abs(keptRows - statRows) >= analyzeThreshold(statRows));
  return { stale, rowsAtAnalyze: statRows ?? 0 };
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
