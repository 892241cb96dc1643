import { runInWorker } from './worker-pool.js';
import type { LoadResult } from './load-loop.js';

/**
 * What one load worker runs: `plan` status = status polls only; mixed = status, list, ops;
 * put = PutEntry of a new key each into `treeId`.
 */
export interface LoadJob {
  transport: 'grpc' | 'grpcWeb';
  baseUrl: string;
  token?: string;
  operationId: string;
  plan: 'status' | 'mixed' | 'put';
  /** The tree plan `put` writes into. */
  treeId?: string;
  concurrency: number;
  seconds: number;
  warmupSeconds?: number;
}

/** Runs `job` in a worker thread (reused; one each for concurrent jobs) and resolves its result. */
export function runLoadInWorker(job: LoadJob): Promise<LoadResult> {
  return runInWorker(new URL('./load-worker-entry.mjs', import.meta.url), job);
}
