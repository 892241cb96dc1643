import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { HASH_LIMBS_16, type HashSums } from './entry-digest-reads.js';
import { prefixEnd } from './tree-db.js';

/**
 * SQLite's counterpart of postgresHashSums (entry-digest-reads.ts) for a restore drill's
 * read-back (issue 36): the live entries under a prefix, each hashed as the content digest
 * hashes it (SHA-256 of `<JSON key>,"valueJson":<JSON value>`, built by SQLite's json_quote),
 * the hashes cut into sixteen 16-bit limbs and each limb summed. PostgreSQL does this on its own
 * backends; better-sqlite3 would do it on the event loop, where a million entries took ≈2.9 s of
 * reading and hashing (docs/performance.md). Here it runs on worker threads, each with its own
 * read-only connection to the file, the range cut by row count into as many slices as workers:
 * the main thread stays free and two cores share the work.
 *
 * The slices are read by separate connections, so this is for a tree nobody writes while it
 * runs (a drill's scratch tree after its restore: no client can reach it).
 */

export interface SqliteHashSumOptions {
  /** The database file (Storage.sqliteFile). */
  file: string;
  /** About how many rows the range holds: where it is cut (any value gives the right sums). */
  expectedRows: number;
  /** Threads to read with (1 or more). */
  workers: number;
  signal: AbortSignal;
}

/** What a SQLite text of a live entry whose value is SQL NULL ends with (capture skips it). */
const NULL_VALUE_TAIL = ',"valueJson":null';

/**
 * The per-row text (NULL for a tombstone: tested in the select list, not in WHERE, so the walk
 * stays on the primary key as the capture's does — sqlite-entry-pages.ts).
 */
const ROW_TEXT = `case when tombstone = 0 then json_quote(key) || ',"valueJson":' || json_quote(value_json) end`;

/** Whether a prefix can be read by key range alone (a prefix of only U+FFFF has no end). */
export function sqliteHashSumsCanRead(keyPrefix: string): boolean {
  return keyPrefix === '' || prefixEnd(keyPrefix) !== undefined;
}

/** The hash sums of `physicalTreeId`'s live entries under `keyPrefix`, read on worker threads. */
export async function sqliteHashSums(
  physicalTreeId: string,
  keyPrefix: string,
  options: SqliteHashSumOptions,
): Promise<HashSums> {
  const end = keyPrefix === '' ? undefined : prefixEnd(keyPrefix);
  if (keyPrefix !== '' && end === undefined) throw new Error('a prefix without a key range end');
  const workers = Math.max(1, Math.trunc(options.workers));
  const share = Math.ceil(Math.max(options.expectedRows, 1) / workers);
  const slices = Array.from({ length: workers }, (_, i) => ({
    offset: i * share,
    // The last slice reads to the end, whatever the estimate missed.
    limit: i === workers - 1 ? -1 : share,
  }));
  const sql =
    `select ${ROW_TEXT} from entries where physical_tree_id = ? and key >= ?` +
    (end === undefined ? '' : ' and key < ?') +
    ' order by key limit ? offset ?';
  const rangeParams = end === undefined ? [physicalTreeId, keyPrefix] : [physicalTreeId, keyPrefix, end];
  const controller = new AbortController();
  const abort = () => controller.abort(options.signal.reason);
  options.signal.addEventListener('abort', abort, { once: true });
  try {
    options.signal.throwIfAborted();
    const parts = await Promise.all(
      slices.map((slice) =>
        sumOnWorker(
          { file: options.file, sql, params: [...rangeParams, slice.limit, slice.offset] },
          controller.signal,
        ).catch((error: unknown) => {
          // One slice failing ends the others: their sums would be of no use.
          controller.abort(error);
          throw error;
        }),
      ),
    );
    const total: HashSums = { entries: 0, limbSums: new Array<bigint>(HASH_LIMBS_16).fill(0n) };
    for (const part of parts) {
      total.entries += part.entries;
      part.limbSums.forEach((limb, i) => (total.limbSums[i]! += limb));
    }
    return total;
  } finally {
    options.signal.removeEventListener('abort', abort);
  }
}

interface SliceJob {
  file: string;
  sql: string;
  params: (string | number)[];
}

/** better-sqlite3 as this module resolves it, so the worker loads the same build. */
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

// Plain JavaScript evaluated in the worker, so it runs the same from sources and from a build.
// Limb sums stay exact as numbers: 65 535 × 2^36 rows is still below 2^53.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { hash } = require('node:crypto');
const Database = require(workerData.driver);
const { file, sql, params, nullTail, limbCount } = workerData;
const db = new Database(file, { readonly: true, fileMustExist: true });
try {
  db.pragma('busy_timeout = 5000');
  const limbs = new Array(limbCount).fill(0);
  let entries = 0;
  for (const text of db.prepare(sql).pluck().iterate(...params)) {
    if (text === null || text.endsWith(nullTail)) continue;
    // A 'binary' (latin1) string: a third cheaper per entry than a Buffer, bytes as char codes.
    const h = hash('sha256', text, 'binary');
    for (let i = 0; i < limbCount; i++) limbs[i] += (h.charCodeAt(2 * i) << 8) | h.charCodeAt(2 * i + 1);
    entries++;
  }
  parentPort.postMessage({ entries, limbs: limbs.map(String) });
} finally {
  db.close();
}
`;

function sumOnWorker(job: SliceJob, signal: AbortSignal): Promise<HashSums> {
  signal.throwIfAborted();
  return new Promise<HashSums>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        ...job,
        driver: DRIVER,
        nullTail: NULL_VALUE_TAIL,
        limbCount: HASH_LIMBS_16,
      },
    });
    let result: HashSums | undefined;
    const stop = () => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('read-back aborted'));
      void worker.terminate();
    };
    signal.addEventListener('abort', stop, { once: true });
    worker.on('message', (message: { entries: number; limbs: string[] }) => {
      result = { entries: message.entries, limbSums: message.limbs.map((limb) => BigInt(limb)) };
    });
    worker.on('error', (error) => {
      signal.removeEventListener('abort', stop);
      reject(error);
    });
    worker.on('exit', (code) => {
      signal.removeEventListener('abort', stop);
      if (result) resolve(result);
      else reject(new Error(`the read-back worker exited (${code}) without its sums`));
    });
  });
}
