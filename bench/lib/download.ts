import { Worker } from 'node:worker_threads';

/** One timed download of row 4 in a worker, after an untimed one of the same thing if `warmUp`. */
export interface DownloadJob {
  kind: 'static' | 'export' | 'export-connect' | 'export-h2c';
  baseUrl: string;
  staticName: string;
  token: string;
  backupId: string;
  artifactId: string;
  warmUp: boolean;
}

export interface Download {
  bytes: number;
  sha256: string;
  ms: number;
}

export function downloadInWorker(job: DownloadJob): Promise<Download> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./download-worker-entry.mjs', import.meta.url), {
      workerData: job,
    });
    worker.once('message', (result: Download) => resolve(result));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`download worker exited with ${code}`));
    });
  });
}
