// Worker threads kept for the whole run and reused job after job: starting one (tsx compiling the
// client code again) costs a second or more on a loaded machine, which a bench of many short
// rounds paid per round. A busy worker is never shared: concurrent jobs get a worker each.
import { Worker, parentPort } from 'node:worker_threads';

type Reply = { ok: true; result: unknown } | { ok: false; error: string };

const idle = new Map<string, Worker[]>();

/** Runs `job` in an idle worker of `entry` (started if none is idle) and resolves its result. */
export function runInWorker<T>(entry: URL, job: unknown): Promise<T> {
  let free = idle.get(entry.href);
  if (!free) idle.set(entry.href, (free = []));
  const pool = free;
  const worker = pool.pop() ?? started(entry, pool);
  // An idle worker must not keep the process alive; a busy one must, until its reply.
  worker.ref();
  return new Promise<T>((resolve, reject) => {
    const settle = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (reply: Reply) => {
      settle();
      worker.unref();
      pool.push(worker);
      if (reply.ok) resolve(reply.result as T);
      else reject(new Error(reply.error));
    };
    const onError = (error: Error) => {
      settle();
      reject(error);
    };
    const onExit = (code: number) => {
      settle();
      reject(new Error(`worker ${entry.pathname} exited with ${code}`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job);
  });
}

function started(entry: URL, pool: Worker[]): Worker {
  const worker = new Worker(entry);
  // A worker that dies while idle leaves the pool (its job, if any, hears of it below).
  worker.on('error', () => undefined);
  worker.on('exit', () => {
    const at = pool.indexOf(worker);
    if (at >= 0) pool.splice(at, 1);
  });
  return worker;
}

/** The worker's side: answers each job posted by runInWorker with `run`'s result or error. */
export function serveJobs<J>(run: (job: J) => Promise<unknown>): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs runs in a worker thread only');
  port.on('message', (job: J) => {
    run(job).then(
      (result) => port.postMessage({ ok: true, result } satisfies Reply),
      (error: unknown) =>
        port.postMessage({
          ok: false,
          error: error instanceof Error ? (error.stack ?? error.message) : String(error),
        } satisfies Reply),
    );
  });
}
