import { createRequire } from 'node:module';
import type { PostgresLocation } from '../pg-notifications.js';
import type { HashSums } from './entry-digest-reads.js';
import { rowSlices, sumSlicesOnWorkers } from './hash-sum-workers.js';
import { prefixEnd } from './tree-db.js';

/**
 * PostgreSQL's read-back of a drill's scratch tree with the hashing in this process (issue 36):
 * worker threads, each on a connection of its own in the snapshot the drill exported, COPY a
 * slice of the tree's entry texts (`<JSON key>,"valueJson":<JSON value>`, built by `to_json` as
 * the capture's COPY line builds them) and hash each line where it lies in the stream. SHA-256
 * and the limb sums in SQL (postgresHashSums) cost ≈ 2 s per million entries on two backends;
 * the database here only builds the texts, and Node's SHA-256 over bytes is the cheaper half.
 */

export interface PostgresWorkerHashOptions {
  location: PostgresLocation;
  /** The id pg_export_snapshot gave the drill's read transaction. */
  snapshotId: string;
  /** About how many rows the scope holds: where it is cut (any value gives the right sums). */
  expectedRows: number;
  workers: number;
  signal: AbortSignal;
}

/** Whether a prefix can be read by key range alone (a prefix of only U+FFFF has no end). */
export function postgresWorkerHashCanRead(keyPrefix: string): boolean {
  return keyPrefix === '' || prefixEnd(keyPrefix) !== undefined;
}

/** A SQL string literal (standard_conforming_strings is on in every supported PostgreSQL). */
function literal(text: string): string {
  if (text.includes('\0')) throw new Error('a NUL character cannot be in a SQL literal');
  return `'${text.replace(/'/g, "''")}'`;
}

/** The hash sums of the scope's live entries, read and hashed on worker threads. */
export async function postgresHashSumsOnWorkers(
  physicalTreeId: string,
  keyPrefix: string,
  options: PostgresWorkerHashOptions,
): Promise<HashSums> {
  const end = keyPrefix === '' ? undefined : prefixEnd(keyPrefix);
  if (keyPrefix !== '' && end === undefined) throw new Error('a prefix without a key range end');
  // The id as a sub-select: the scratch tree is in no statistics yet, and given its id the
  // planner expects one row and may walk the sequence index and sort (entry-digest-reads.ts).
  const conditions = [
    `physical_tree_id = (select ${literal(physicalTreeId)}::text)`,
    'tombstone = 0',
    ...(keyPrefix === '' ? [] : [`key >= ${literal(keyPrefix)}`, `key < ${literal(end!)}`]),
  ];
  // Texts never hold a newline, the delimiter or the quote: to_json escapes every control
  // character, so each CSV line is one text exactly as stored.
  const copyOf = (limit: string, offset: number) =>
    `copy (select to_json(key)::text || ',"valueJson":' || to_json(value_json)::text ` +
    `from entries where ${conditions.join(' and ')} order by key limit ${limit} offset ${offset}) ` +
    `to stdout with (format csv, delimiter e'\\x01', quote e'\\x02')`;
  const jobs = rowSlices(options.expectedRows, options.workers).map(([offset, limit]) => ({
    connectionString: options.location.connectionString,
    schema: options.location.schema ?? null,
    snapshotId: options.snapshotId,
    copy: copyOf(limit === -1 ? 'all' : String(limit), offset),
    modules: MODULES,
  }));
  return sumSlicesOnWorkers(WORKER_SOURCE, jobs, options.signal);
}

const resolve = createRequire(import.meta.url).resolve;
/** The drivers as this module resolves them, so the worker loads the same builds. */
const MODULES = { pg: resolve('pg'), copy: resolve('pg-copy-streams') };

// Plain JavaScript evaluated in the worker, so it runs the same from sources and from a build.
// An empty line is a live entry whose value is SQL NULL: the capture leaves it out, so does this.
// Limb sums stay exact as numbers: 65 535 × 2^36 rows is still below 2^53.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { hash } = require('node:crypto');
const pg = require(workerData.modules.pg);
const { to: copyTo } = require(workerData.modules.copy);
const { connectionString, schema, snapshotId, copy, limbCount } = workerData;
(async () => {
  const client = new pg.Client({
    connectionString,
    ...(schema ? { options: '-c search_path=' + schema } : {}),
  });
  await client.connect();
  try {
    await client.query(
      'begin isolation level repeatable read read only; set transaction snapshot ' +
        client.escapeLiteral(snapshotId),
    );
    const limbs = new Array(limbCount).fill(0);
    let entries = 0;
    let rest = null;
    for await (const chunk of client.query(copyTo(copy))) {
      const bytes = rest ? Buffer.concat([rest, chunk]) : chunk;
      let start = 0;
      for (let end = bytes.indexOf(10, start); end !== -1; end = bytes.indexOf(10, start)) {
        if (end > start) {
          const h = hash('sha256', bytes.subarray(start, end), 'binary');
          for (let i = 0; i < limbCount; i++) limbs[i] += (h.charCodeAt(2 * i) << 8) | h.charCodeAt(2 * i + 1);
          entries++;
        }
        start = end + 1;
      }
      rest = start < bytes.length ? bytes.subarray(start) : null;
    }
    if (rest) throw new Error('the COPY ended inside a line');
    await client.query('commit');
    parentPort.postMessage({ entries, limbs: limbs.map(String) });
  } finally {
    await client.end();
  }
})().catch((error) => {
  throw error;
});
`;
