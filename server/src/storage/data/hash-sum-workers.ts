import { Worker } from 'node:worker_threads';
import { HASH_LIMBS_16, type HashSums } from './entry-digest-reads.js';

/**
 * Runs one worker thread per job of a drill's read-back (sqlite-hash-sums.ts,
 * postgres-hash-sums-on-workers.ts) and adds up their sums. Each worker evaluates `source` (plain
 * JavaScript, so it runs the same from sources and from a build) with the job as its workerData
 * plus `limbCount`, and posts `{ entries, limbs }` (limb sums as decimal strings) once. A failing
 * slice ends the others; an abort of `signal` terminates them all.
 */
export async function sumSlicesOnWorkers(
  source: string,
  jobs: readonly Record<string, unknown>[],
  signal: AbortSignal,
): Promise<HashSums> {
  const controller = new AbortController();
  const abort = () => controller.abort(signal.reason);
  signal.addEventListener('abort', abort, { once: true });
  try {
    signal.throwIfAborted();
    const parts = await Promise.all(
      jobs.map((job) =>
        sumOnWorker(source, job, controller.signal).catch((error: unknown) => {
          // The other slices' sums are of no use without this one.
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
    signal.removeEventListener('abort', abort);
  }
}

/** `[offset, limit]` of each of `workers` slices of about `expectedRows` rows; the last: to the end (-1). */
export function rowSlices(expectedRows: number, workers: number): [number, number][] {
  const count = Math.max(1, Math.trunc(workers));
  const share = Math.ceil(Math.max(expectedRows, 1) / count);
  return Array.from({ length: count }, (_, i) => [i * share, i === count - 1 ? -1 : share]);
}

function sumOnWorker(
  source: string,
  job: Record<string, unknown>,
  signal: AbortSignal,
): Promise<HashSums> {
  signal.throwIfAborted();
  return new Promise<HashSums>((resolve, reject) => {
    const worker = new Worker(source, {
      eval: true,
      workerData: { ...job, limbCount: HASH_LIMBS_16 },
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
      else reject(new Error(`a read-back worker exited (${code}) without its sums`));
    });
  });
}
