import { Worker } from 'node:worker_threads';
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

/** Runs `job` in a worker thread and resolves with its result. */
export function runLoadInWorker(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker-entry.mjs', import.meta.url), {
      workerData: job,
    });
    worker.once('message', (result: LoadResult) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker exited with ${code}`));
    });
  });
}
