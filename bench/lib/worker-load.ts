import { runInWorker } from './worker-pool.js';
import type { LoadResult } from './load-loop.js';

/** What one load worker runs: `plan` status = status polls only; mixed = status, list, ops. */
export interface LoadJob {
  transport: 'grpc' | 'grpcWeb';
  baseUrl: string;
  token?: string;
  operationId: string;
  plan: 'status' | 'mixed';
  concurrency: number;
  seconds: number;
  warmupSeconds?: number;
}

/** Runs `job` in a worker thread (reused; one each for concurrent jobs) and resolves its result. */
export function runLoadInWorker(job: LoadJob): Promise<LoadResult> {
  return runInWorker(new URL('./load-worker-entry.mjs', import.meta.url), job);
}
