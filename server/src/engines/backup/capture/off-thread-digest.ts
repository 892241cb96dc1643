// A full capture hashed each entry on the main thread (crypto.hash per entry, ≈1.5 µs): a quarter
// of its main-thread time, while the peer pipelines (a driver read + gzip + sha256, or psql | gzip
// | sha256sum) compute no content digest and spread over both cores. Here the capture's main
// thread only copies each run of lines to a worker, which walks and hashes them on the other core.
import { Worker } from 'node:worker_threads';
import { ContentDigest } from './content-digest.js';

/**
 * Bytes hashed on the calling thread before the worker is asked: a small scope (most captures,
 * every test) costs no worker start and no message, and its digest is sub-millisecond anyway.
 */
const INLINE_BYTES = 1024 * 1024;

/** Bytes posted and not yet hashed before `addEncodedLines` waits: bounds the memory held. */
const MAX_IN_FLIGHT_BYTES = 8 * 1024 * 1024;

/** What the worker answers: an acknowledgement, the final sum, or why it failed. */
interface Answer {
  id: number;
  sum?: number[];
  entries?: number;
  error?: string;
}

interface Pending {
  resolve: (answer: Answer) => void;
  reject: (error: Error) => void;
}

/**
 * ContentDigest.addEncodedLines for a capture's stream of line runs, hashed off the main thread
 * once the scope proves big. The digest is the same value (the sum of the same entry hashes); the
 * first INLINE_BYTES are summed here and the worker's sum is added at the end. Runs are hashed in
 * the order they are added. Call `digest()` after the last run, or `release()` when abandoning.
 */
export class OffThreadContentDigest {
  private readonly inline = new ContentDigest();
  private inlineBytes = 0;
  private readonly stream = nextId++;
  private posted = false;
  private inFlightBytes = 0;
  private readonly inFlight: Promise<unknown>[] = [];
  private failure: Error | undefined;

  /** Adds the live entries among whole encoded lines; waits only when the worker lags behind. */
  async addEncodedLines(bytes: Buffer): Promise<void> {
    if (this.failure) throw this.failure;
    if (!this.posted && this.inlineBytes + bytes.length <= INLINE_BYTES) {
      this.inline.addEncodedLines(bytes);
      this.inlineBytes += bytes.length;
      return;
    }
    this.posted = true;
    // A copy of its own, transferred: the caller's buffer may be a view of a larger one (which
    // postMessage would clone whole) and goes on to compression while the worker hashes.
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    this.inFlightBytes += copy.length;
    const done = ask({ stream: this.stream, bytes: copy }, [copy.buffer]).then(
      () => {
        this.inFlightBytes -= copy.length;
      },
      (error: Error) => {
        this.failure ??= error;
      },
    );
    this.inFlight.push(done);
    while (this.inFlightBytes > MAX_IN_FLIGHT_BYTES && this.inFlight.length > 0) {
      await this.inFlight.shift();
    }
    if (this.failure) throw this.failure;
  }

  /** The digest of every entry added. */
  async digest(): Promise<ContentDigest> {
    if (!this.posted) return this.inline;
    await Promise.all(this.inFlight);
    if (this.failure) {
      this.release();
      throw this.failure;
    }
    const answer = await ask({ stream: this.stream, final: true });
    const total = new ContentDigest();
    total.addDigest(this.inline);
    total.addDigest(ContentDigest.fromSum(answer.sum ?? [], answer.entries ?? 0));
    return total;
  }

  /** Drops the worker's state of a digest abandoned before its end (an aborted capture). */
  release(): void {
    if (this.posted) ask({ stream: this.stream, final: true }).catch(() => undefined);
  }
}

/**
 * Plain JavaScript evaluated in the worker, so it runs the same from sources and from a build.
 * It repeats ContentDigest.addEncodedLines and addHash (content-digest.ts) for the worker, with
 * fewer calls per line; off-thread-digest.test.ts holds the two to the same digests.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { hash } = require('node:crypto');
const LINE_HEAD = Buffer.from('{"key":');
const SEQUENCE_FIELD = Buffer.from(',"sequence":');
const TOMBSTONE_VALUE = Buffer.from(',"valueJson":null');
const LIMB = 2 ** 32;
const streams = new Map();
const startsWith = (bytes, at, field) => {
  for (let i = 0; i < field.length; i++) if (bytes[at + i] !== field[i]) return false;
  return true;
};
function addHash(state, digest) {
  const sum = state.sum;
  let carry = 0;
  for (let i = 7; i >= 0; i--) {
    const at = i * 4;
    const limb =
      digest.charCodeAt(at) * 0x1000000 +
      ((digest.charCodeAt(at + 1) << 16) | (digest.charCodeAt(at + 2) << 8) | digest.charCodeAt(at + 3));
    const total = sum[i] + limb + carry;
    sum[i] = total % LIMB;
    carry = total >= LIMB ? 1 : 0;
  }
  state.entries += 1;
}
// Where ',"sequence":' last starts in the line [start, end), or -1: a scan back from the line's
// end, which the field is a few bytes from (Buffer#lastIndexOf costs more per call).
function sequenceField(bytes, start, end) {
  for (let at = end - SEQUENCE_FIELD.length; at >= start; at--) {
    if (bytes[at] === 0x2c && startsWith(bytes, at, SEQUENCE_FIELD)) return at;
  }
  return -1;
}
function addEncodedLines(state, bytes) {
  let start = 0;
  for (let end = bytes.indexOf(10); end !== -1; end = bytes.indexOf(10, start)) {
    const tail = sequenceField(bytes, start + LINE_HEAD.length, end);
    if (tail === -1 || !startsWith(bytes, start, LINE_HEAD)) {
      throw new Error('an encoded line does not read as encodeRecord writes it');
    }
    const from = tail - TOMBSTONE_VALUE.length;
    if (!(from >= 0 && startsWith(bytes, from, TOMBSTONE_VALUE))) {
      addHash(state, hash('sha256', bytes.subarray(start + LINE_HEAD.length, tail), 'binary'));
    }
    start = end + 1;
  }
}
parentPort.on('message', ({ id, stream, bytes, final }) => {
  let state = streams.get(stream);
  if (!state) streams.set(stream, (state = { sum: [0, 0, 0, 0, 0, 0, 0, 0], entries: 0 }));
  try {
    if (bytes) addEncodedLines(state, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
    if (final) streams.delete(stream);
    parentPort.postMessage(final ? { id, sum: state.sum, entries: state.entries } : { id });
  } catch (error) {
    streams.delete(stream);
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

let worker: Worker | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function ask(
  message: { stream: number; bytes?: Uint8Array; final?: boolean },
  transfer: ArrayBuffer[] = [],
): Promise<Answer> {
  const target = digestWorker();
  const id = nextId++;
  return new Promise<Answer>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    if (pending.size === 1) target.ref();
    target.postMessage({ id, ...message }, transfer);
  });
}

function digestWorker(): Worker {
  if (worker) return worker;
  const created = new Worker(WORKER_SOURCE, { eval: true });
  created.on('message', (answer: Answer) => {
    const waiter = pending.get(answer.id);
    pending.delete(answer.id);
    // Idle, the worker must not keep the process alive.
    if (pending.size === 0) created.unref();
    if (!waiter) return;
    if (answer.error !== undefined) waiter.reject(new Error(answer.error));
    else waiter.resolve(answer);
  });
  created.on('error', (error) => failAll(error));
  created.on('exit', () => {
    if (worker === created) worker = undefined;
    failAll(new Error('the content digest worker exited'));
  });
  created.unref();
  worker = created;
  return created;
}

function failAll(error: Error): void {
  for (const waiter of pending.values()) waiter.reject(error);
  pending.clear();
}
