import { Worker } from 'node:worker_threads';

export interface FileDigest {
  sha256: string;
  /** Bytes hashed: fewer than asked when the file ended first. */
  bytes: number;
}

/**
 * sha256 of an open file's first `size` bytes, computed on a worker thread. Node's hash is
 * synchronous, so hashing a 200 MB artifact on the main thread stalls every other call for as
 * long (≈ 0.4 s); on the worker it overlaps with them. The worker reads the caller's file
 * descriptor (descriptors are process-wide), so it hashes exactly the file the caller opened.
 * The caller must keep that descriptor open until the promise settles.
 */
export function sha256OfOpenFile(fd: number, size: number): Promise<FileDigest> {
  return ask({ fd, size });
}

/**
 * An incremental sha256 computed on the worker thread: `update` posts a copy of the bytes (a
 * memcpy instead of the hash on the main thread) and resolves once they are hashed, so a caller
 * that awaits the previous update keeps at most two blocks in flight. Updates are hashed in the
 * order they were posted.
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

function ask(message: Record<string, unknown>): Promise<FileDigest> {
  const worker = hashWorker();
  const id = nextId++;
  return new Promise<FileDigest>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    if (pending.size === 1) worker.ref();
    worker.postMessage({ id, ...message });
  });
}

interface Pending {
  resolve: (digest: FileDigest) => void;
  reject: (error: Error) => void;
}

// Plain JavaScript evaluated in the worker, so it runs the same from sources and from a build.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { readSync } = require('node:fs');
const { createHash } = require('node:crypto');
const buffer = Buffer.allocUnsafe(1024 * 1024);
const streams = new Map();
parentPort.on('message', ({ id, fd, size, stream, bytes, final }) => {
  try {
    if (stream !== undefined) {
      let hash = streams.get(stream);
      if (!hash) streams.set(stream, (hash = createHash('sha256')));
      if (bytes) hash.update(bytes);
      if (final) streams.delete(stream);
      parentPort.postMessage({ id, digest: final ? hash.digest('hex') : '', bytes: 0 });
      return;
    }
    const hash = createHash('sha256');
    let position = 0;
    while (position < size) {
      const bytesRead = readSync(fd, buffer, 0, Math.min(buffer.length, size - position), position);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
    parentPort.postMessage({ id, digest: hash.digest('hex'), bytes: position });
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
  created.on(
    'message',
    (message: { id: number; digest?: string; bytes?: number; error?: string }) => {
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      // Idle, the worker must not keep the process alive.
      if (pending.size === 0) created.unref();
      if (!waiter) return;
      if (message.digest === undefined) waiter.reject(new Error(message.error));
      else waiter.resolve({ sha256: message.digest, bytes: message.bytes ?? 0 });
    },
  );
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
