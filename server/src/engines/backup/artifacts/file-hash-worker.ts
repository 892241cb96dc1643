// Node's hash is synchronous: hashing a 200 MB artifact on the main thread would stall every
// other call of the server for as long (≈ 0.13 s); on this worker it overlaps with them.
import { Worker } from 'node:worker_threads';

interface Digest {
  sha256: string;
}

/**
 * An incremental sha256 computed on the worker thread: `update` posts the bytes and resolves once
 * they are hashed; the caller must not change them before then. Bytes in a SharedArrayBuffer
 * are hashed where they lie; others are copied by postMessage. Updates are hashed in the order
 * they were posted.
 */
export class OffThreadSha256 {
  private readonly stream = nextId++;

  update(bytes: Uint8Array): Promise<unknown> {
    return ask({ stream: this.stream, bytes });
  }

  async digest(): Promise<string> {
    return (await ask({ stream: this.stream, final: true })).sha256;
  }

  /** Drops the worker's state of a hash abandoned before its digest (an export cut short). */
  release(): void {
    ask({ stream: this.stream, final: true }).catch(() => undefined);
  }
}

/**
 * Boots the worker now rather than at the first hash. A worker takes tens of milliseconds to
 * start (60-90 ms at load 5), and a fresh server's first export waited for it after its first
 * block (docs/performance.md, "Row 18: the first export"). Idle, it does not keep the process
 * alive.
 */
export function startHashWorker(): void {
  hashWorker();
}

function ask(message: Record<string, unknown>): Promise<Digest> {
  const worker = hashWorker();
  const id = nextId++;
  return new Promise<Digest>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    if (pending.size === 1) worker.ref();
    worker.postMessage({ id, ...message });
  });
}

interface Pending {
  resolve: (digest: Digest) => void;
  reject: (error: Error) => void;
}

// Plain JavaScript evaluated in the worker, so it runs the same from sources and from a build.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const streams = new Map();
parentPort.on('message', ({ id, stream, bytes, final }) => {
  try {
    let hash = streams.get(stream);
    if (!hash) streams.set(stream, (hash = createHash('sha256')));
    if (bytes) hash.update(bytes);
    if (final) streams.delete(stream);
    parentPort.postMessage({ id, digest: final ? hash.digest('hex') : '' });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function hashWorker(): Worker {
  if (worker) return worker;
  const created = new Worker(WORKER_SOURCE, { eval: true });
  created.on('message', (message: { id: number; digest?: string; error?: string }) => {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    // Idle, the worker must not keep the process alive.
    if (pending.size === 0) created.unref();
    if (!waiter) return;
    if (message.digest === undefined) waiter.reject(new Error(message.error));
    else waiter.resolve({ sha256: message.digest });
  });
  created.on('error', (error) => failAll(error));
  created.on('exit', () => {
    if (worker === created) worker = undefined;
    failAll(new Error('the file hash worker exited'));
  });
  created.unref();
  worker = created;
  return created;
}

function failAll(error: Error): void {
  for (const waiter of pending.values()) waiter.reject(error);
  pending.clear();
}
