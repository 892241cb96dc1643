import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { sql } from 'kysely';
import { from as copyFrom } from 'pg-copy-streams';
import { raiseLastSequence } from './physical-tree-store.js';
import { entriesTableOf, sqliteStatement, type TreeDb } from './tree-db.js';

/**
 * Loads a restore's first (full) backup into its fresh, hidden physical tree: every key once,
 * into an empty tree, so rows are inserted, never upserted. Nothing can see the tree until the
 * install commit (restore-install-store), which is the one that flushes; these commits do not
 * wait for their own flush (see physical-tree-store withoutOwnFlush for why that is safe).
 */
export interface HiddenTreeLoader {
  /** Queues entries; resolves when more may be written. A key seen twice fails the load. */
  write(entries: readonly LoadEntry[]): Promise<void>;
  /** Ends the load, raises the tree's last_sequence to the highest written, and commits. */
  finish(): Promise<void>;
  /** Stops and rolls back what is not committed (idempotent; the caller drops the tree). */
  abort(reason: Error): Promise<void>;
}

/** An entry as a backup holds it (the shape of an artifact record: no per-row copy needed). */
export interface LoadEntry {
  key: string;
  /** Canonical JSON; null for a tombstone. */
  valueJson: string | null;
  sequence: number;
  schemaVersion: number;
}

/**
 * A loader for `physicalTreeId` (PostgreSQL: COPY … FROM STDIN; SQLite: prepared inserts);
 * every row gets `updatedAt`.
 */
export async function openHiddenTreeLoader(
  handle: TreeDb,
  physicalTreeId: string,
  updatedAt: number,
): Promise<HiddenTreeLoader> {
  return handle.dialect === 'postgres'
    ? openCopyLoader(handle, physicalTreeId, updatedAt)
    : sqliteLoader(handle, physicalTreeId, updatedAt);
}

const COLUMNS =
  'physical_tree_id, key, value_json, tombstone, sequence, schema_version, updated_at';

/** COPY's text format: backslash, tab, newline and carriage return are escaped; \N is null. */
function copyText(value: string): string {
  return /[\\\t\n\r]/.test(value)
    ? value.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : value;
}

/**
 * PostgreSQL: one COPY … FROM STDIN (pg-copy-streams) on a connection of its own, in one
 * transaction with synchronous_commit off: rows go out as the artifacts are read, and the
 * server's backend inserts them on the other core while this process reads and decodes.
 */
async function openCopyLoader(
  handle: TreeDb,
  physicalTreeId: string,
  updatedAt: number,
): Promise<HiddenTreeLoader> {
  const pool = handle.postgresPool;
  if (!pool) throw new Error('a PostgreSQL handle without its pool');
  const client = await pool.connect();
  let stream: Writable;
  try {
    await client.query('begin');
    await client.query('set local synchronous_commit = off');
    stream = client.query(copyFrom(`copy ${entriesTableOf(handle)} (${COLUMNS}) from stdin`));
  } catch (error) {
    client.release(true);
    throw error;
  }
  // A COPY error (a duplicate key) surfaces on the next write or at finish.
  let failure: Error | undefined;
  stream.on('error', (error: Error) => (failure ??= error));
  const tree = copyText(physicalTreeId);
  const rowEnd = `\t${safeInteger(updatedAt)}\n`;
  let highest = 0;
  let released = false;
  const release = (discard: boolean) => {
    if (released) return;
    released = true;
    client.release(discard ? true : undefined);
  };
  const loader: HiddenTreeLoader = {
    async write(entries) {
      if (failure) throw failure;
      let text = '';
      for (const e of entries) {
        const value = e.valueJson === null ? '\\N\t1' : `${copyText(e.valueJson)}\t0`;
        text += `${tree}\t${copyText(e.key)}\t${value}\t${e.sequence}\t${e.schemaVersion}${rowEnd}`;
        if (e.sequence > highest) highest = e.sequence;
      }
      if (!stream.write(text)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            stream.off('drain', done);
            stream.off('error', done);
            resolve();
          };
          stream.on('drain', done);
          stream.on('error', done);
        });
      }
      if (failure) throw failure;
    },
    async finish() {
      try {
        stream.end();
        await once(stream, 'finish');
        await client.query(
          'update physical_trees set last_sequence = $1 where id = $2 and last_sequence < $1',
          [highest, physicalTreeId],
        );
        await client.query('commit');
        release(false);
      } catch (error) {
        await loader.abort(error instanceof Error ? error : new Error(String(error)));
        throw failure ?? error;
      }
    },
    async abort(reason) {
      if (released) return;
      if (!stream.destroyed) stream.destroy(reason);
      await once(stream, 'close').catch(() => undefined);
      await client.query('rollback').catch(() => undefined);
      // The connection may be mid-protocol after a failed COPY: never hand it to anyone else.
      release(true);
    },
  };
  return loader;
}

/**
 * SQLite: a plain prepared INSERT per row (in-process, no round trip), one transaction per
 * write — the server's one connection is shared, so a restore must not hold it for the whole
 * load — with synchronous = NORMAL for that transaction only. The tree id and the time are
 * literals of the statement, so a row binds only what differs (as a hand-written loop would).
 *
 * The kept counts (migration 0025) are added once per write from the loader's own tally rather
 * than by the per-row trigger, which costs an UPDATE of the physical tree's row for every row
 * (issue 37 bullet 6): inside the write's transaction the insert trigger is dropped, the rows
 * inserted, the counts added, and the trigger created again from its own stored text. DDL is
 * transactional in SQLite, and only this transaction runs on the connection meanwhile, so no
 * other write ever runs without the trigger and a crash at any point rolls back the rows, the
 * counts and the drop together: the counts stay exact.
 */
async function sqliteLoader(
  handle: TreeDb,
  physicalTreeId: string,
  updatedAt: number,
): Promise<HiddenTreeLoader> {
  const text =
    `insert into entries (${COLUMNS}) values ` +
    `('${physicalTreeId.replace(/'/g, "''")}', ?, ?, ?, ?, ?, ${safeInteger(updatedAt)})`;
  const countTrigger = await sqliteCountTrigger(handle);
  let highest = 0;
  return {
    async write(entries) {
      await handle.db.connection().execute(async (connection) => {
        const tx: TreeDb = { ...handle, db: connection };
        await sql`pragma synchronous = normal`.execute(connection);
        try {
          await connection.transaction().execute(async (trx) => {
            if (countTrigger) await sql.raw(`drop trigger ${COUNT_TRIGGER}`).execute(trx);
            const insert = sqliteStatement(tx, text);
            let live = 0;
            let liveBytes = 0;
            let stepStarted = performance.now();
            for (const [index, e] of entries.entries()) {
              // The event loop gets a turn every few milliseconds (issue 37: its delay p99
              // ≤ 50 ms during a restore). The connection stays this transaction's: every other
              // write queues for it (Kysely), so none runs without the trigger; only a read that
              // uses a prepared statement directly (the status poll) may run in between, and
              // the hidden tree is nothing it can name.
              if (index % 64 === 0 && performance.now() - stepStarted > STEP_MS) {
                await new Promise<void>((resolve) => setImmediate(resolve));
                stepStarted = performance.now();
              }
              insert.run(
                e.key,
                e.valueJson,
                e.valueJson === null ? 1 : 0,
                e.sequence,
                e.schemaVersion,
              );
              if (e.sequence > highest) highest = e.sequence;
              if (e.valueJson !== null) {
                live += 1;
                liveBytes += Buffer.byteLength(e.key) + Buffer.byteLength(e.valueJson);
              }
            }
            if (countTrigger) {
              await sql`update physical_trees set live_entries = live_entries + ${live},
                live_bytes = live_bytes + ${liveBytes} where id = ${physicalTreeId}`.execute(trx);
              await sql.raw(countTrigger).execute(trx);
            }
          });
        } finally {
          await sql`pragma synchronous = full`.execute(connection);
        }
      });
    },
    async finish() {
      if (!(await raiseLastSequence(handle, physicalTreeId, highest))) {
        throw new Error(`physical tree ${physicalTreeId} does not exist`);
      }
    },
    async abort() {},
  };
}

/** The longest synchronous run of inserts before the loader yields to the event loop. */
const STEP_MS = 4;

/** Migration 0025's per-row trigger that counts inserted live entries (SQLite). */
const COUNT_TRIGGER = 'entries_count_insert';

/**
 * The count trigger's CREATE statement as stored, to create it again exactly as it was; null
 * when the schema has none (the loader then inserts as any writer does).
 */
async function sqliteCountTrigger(handle: TreeDb): Promise<string | null> {
  const { rows } = await sql<{ sql: string | null }>`
    select sql from sqlite_master
    where type = 'trigger' and tbl_name = 'entries' and name = ${COUNT_TRIGGER}
  `.execute(handle.db);
  return rows[0]?.sql ?? null;
}

function safeInteger(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  return value;
}
