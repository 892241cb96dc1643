// The writing clients of rows 8–9 in a worker thread, so they get their own event loop (and
// core) instead of sharing the server's: what is measured is the server, not the client.
import { isMainThread } from 'node:worker_threads';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  TreeDataService,
  type PutEntriesRequestSchema,
  type PutEntriesResponse,
  type PutEntryRequestSchema,
} from '@store/contract';
import { GrpcH2cUnary } from './grpc-h2c-unary.js';
import { withToken } from './bench-server.js';
import { entryKey, entryValue } from './seed-tree.js';
import { runInWorker, serveJobs } from './worker-pool.js';

/** Sequential PutEntry loops for `seconds`, or `count` entries in PutEntries batches. */
export type WriteJob = {
  baseUrl: string;
  token: string;
  treeId: string;
  /**
   * The lean h2c client (`grpc-h2c-unary.ts`, the default) or connect-node's own, which spends
   * about 2.5× the lean one's CPU a put, out of the same two cores as the server.
   */
  client?: 'lean' | 'connect';
  /** Untimed puts and batches first (default); the smoke, which times nothing it keeps, skips them. */
  warmUp?: boolean;
} & (
  | { kind: 'puts'; callers: number; seconds: number }
  | { kind: 'putEntries'; count: number; batch: number; inFlight: number }
);

/** Entries written and the wall time it took, in the worker. */
export interface WriteResult {
  entries: number;
  ms: number;
}

/** Runs `job` in a worker thread (reused job after job) and resolves with its result. */
export function runWritesInWorker(job: WriteJob): Promise<WriteResult> {
  return runInWorker(new URL('./write-worker-entry.mjs', import.meta.url), job);
}

async function run(job: WriteJob): Promise<WriteResult> {
  const data = job.client === 'connect' ? connectClient(job) : leanClient(job);
  // Warm-up (not measured): this thread's first calls pay for JIT compilation of the client.
  if (job.warmUp !== false) {
    const warmUp = `${job.treeId}-warm-up`;
    for (let i = 0; i < 50; i++) {
      await data.putEntry({ treeId: warmUp, key: `w${i}`, valueJson: entryValue(i) });
    }
    for (let i = 0; i < 3; i++) {
      const batch = Array.from({ length: 1000 }, (_, n) => ({
        key: `w${n}`,
        valueJson: entryValue(n),
      }));
      await data.putEntries({ treeId: warmUp, entries: batch });
    }
  }
  // The import's lines exist before it starts, as a file would: generating 300 000 values took
  // a quarter of this thread's time, which the restore it is compared with never pays.
  const batches = job.kind === 'putEntries' ? importBatches(job.count, job.batch) : [];
  const started = performance.now();
  let entries = 0;
  if (job.kind === 'puts') {
    const until = Date.now() + job.seconds * 1000;
    await Promise.all(
      Array.from({ length: job.callers }, async (_, c) => {
        for (let n = 0; Date.now() < until; n++) {
          await data.putEntry({ treeId: job.treeId, key: `c${c}/${n}`, valueJson: entryValue(n) });
          entries += 1;
        }
      }),
    );
  } else {
    let next = 0;
    await Promise.all(
      Array.from({ length: job.inFlight }, async () => {
        while (next < job.count) {
          const batch = batches[next / job.batch] ?? [];
          next += batch.length;
          const { results } = await data.putEntries({ treeId: job.treeId, entries: batch });
          if (results.some((r) => r.deadLettered)) throw new Error('an entry was dead-lettered');
          entries += batch.length;
        }
      }),
    );
  }
  const ms = performance.now() - started;
  data.close();
  return { entries, ms };
}

/** The two calls the rows make, whichever client makes them. */
interface WriteCalls {
  putEntry(request: MessageInitShape<typeof PutEntryRequestSchema>): Promise<unknown>;
  putEntries(
    request: MessageInitShape<typeof PutEntriesRequestSchema>,
  ): Promise<PutEntriesResponse>;
  close(): void;
}

function connectClient(job: WriteJob): WriteCalls {
  const transport = createGrpcTransport({
    baseUrl: job.baseUrl,
    interceptors: [withToken(job.token)],
  });
  const client = createClient(TreeDataService, transport);
  return {
    putEntry: (request) => client.putEntry(request),
    putEntries: (request) => client.putEntries(request),
    close: () => undefined,
  };
}

function leanClient(job: WriteJob): WriteCalls {
  const h2c = new GrpcH2cUnary(job.baseUrl, { authorization: `Bearer ${job.token}` });
  return {
    putEntry: (request) => h2c.call(TreeDataService.method.putEntry, request),
    putEntries: (request) => h2c.call(TreeDataService.method.putEntries, request),
    close: () => h2c.close(),
  };
}

function importBatches(count: number, size: number) {
  const batches = [];
  for (let start = 0; start < count; start += size) {
    const batch = [];
    for (let i = start; i < Math.min(count, start + size); i++) {
      batch.push({ key: entryKey(i), valueJson: entryValue(i) });
    }
    batches.push(batch);
  }
  return batches;
}

if (!isMainThread) serveJobs(run);
