import { runInWorker } from './worker-pool.js';

const ENTRY = new URL('./download-worker-entry.mjs', import.meta.url);

/** Where a `s3-get` job reads its object: the SDK's GetObject, credentials given. */
export interface S3ObjectJob {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  key: string;
}

/**
 * One timed download in a worker, after an untimed one of the same thing if `warmUp` (or
 * `untimed` of them). `disk` reads `path` and hashes it (rows 16-18's baseline); `s3-get` fetches
 * `s3` with the AWS SDK and hashes it (row 19's baseline).
 */
export interface DownloadJob {
  kind:
    'static' | 'export' | 'export-connect' | 'export-h2c' | 'export-grpc-js' | 'disk' | 's3-get';
  baseUrl: string;
  staticName: string;
  token: string;
  backupId: string;
  artifactId: string;
  warmUp: boolean;
  untimed?: number;
  path?: string;
  s3?: S3ObjectJob;
}

export interface Download {
  bytes: number;
  sha256: string;
  ms: number;
  /**
   * CPU time of the whole process over the timed call (server, its hash worker and this client:
   * the server serves nothing else meanwhile): on a loaded machine the cost that wall time hides.
   */
  cpuMs?: number;
}

/** One download job in a reused worker thread (bench/lib/worker-pool.ts). */
export function downloadInWorker(job: DownloadJob): Promise<Download> {
  return runInWorker(ENTRY, job);
}

/** Several jobs one after the other in one worker: alternating rounds of a figure and its baseline. */
export function downloadsInWorker(jobs: DownloadJob[]): Promise<Download[]> {
  return runInWorker(ENTRY, jobs);
}
