// Runs the load loop in a worker thread, so the callers get their own event loop (and core)
// instead of competing with the server they measure. Started by runLoadInWorker, and reused.
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { BackupControlService, TreeDataService } from '@store/contract';
import { withToken } from './bench-server.js';
import { runLoad, type LoadResult } from './load-loop.js';
import type { LoadJob } from './worker-load.js';
import { serveJobs } from './worker-pool.js';

const keyPrefix = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-`;
let putKeys = 0;

function run(job: LoadJob): Promise<LoadResult> {
  const interceptors = job.token ? [withToken(job.token)] : [];
  const transport =
    job.transport === 'grpc'
      ? createGrpcTransport({ baseUrl: job.baseUrl, interceptors })
      : createGrpcWebTransport({ baseUrl: job.baseUrl, httpVersion: '1.1', interceptors });
  const client = createClient(BackupControlService, transport);

  let turn = 0;
  if (job.plan === 'put') {
    const data = createClient(TreeDataService, transport);
    const treeId = job.treeId ?? 'load';
    // A key this worker never wrote before: each call inserts, none overwrites.
    return runLoad(
      () => data.putEntry({ treeId, key: `${keyPrefix}${putKeys++}`, valueJson: '{"n":1}' }),
      { concurrency: job.concurrency, seconds: job.seconds, warmupSeconds: job.warmupSeconds },
    );
  }
  const calls: (() => Promise<unknown>)[] = [
    async () => {
      const r = await client.getBackupOperationStatus({ operationId: job.operationId });
      if (r.status?.operationId !== job.operationId) throw new Error('status of a wrong operation');
    },
  ];
  if (job.plan === 'mixed') {
    calls.push(
      () => client.listBackups({ pageSize: 20 }),
      () => client.listBackupOperations({ pageSize: 20 }),
    );
  }
  return runLoad(() => (calls[turn++ % calls.length] as () => Promise<unknown>)(), {
    concurrency: job.concurrency,
    seconds: job.seconds,
    warmupSeconds: job.warmupSeconds,
  });
}

serveJobs(run);
