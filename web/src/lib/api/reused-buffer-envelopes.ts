/**
 * gRPC-Web envelopes read from a response body into one buffer reused for the whole stream.
 *
 * connect-web reads a body with the stream's default reader, which hands the page a new
 * ArrayBuffer for every network chunk, then copies each message into another new one. For an
 * export that is two GiB of garbage per GiB, and Chromium's renderer grows by hundreds of MB
 * before the collector gives it back (docs/performance.md, row 27). A BYOB reader fills a buffer
 * the page already has, so nothing per chunk reaches the page; where the body is not a byte stream
 * the default reader's chunks are copied into the same buffer, which still spares the second copy.
 */

import { Code, ConnectError } from '@connectrpc/connect';

/** One envelope; `data` is a view of the reused buffer, valid until the next envelope is asked for. */
export interface ReusedEnvelope {
  flags: number;
  data: Uint8Array<ArrayBuffer>;
}

const HEADER_BYTES = 5;

/**
 * Fills `buffer[offset, offset + length)` from the body; resolves with the buffer that now holds
 * the bytes (a BYOB read transfers it) and how many came before the body ended.
 */
type Fill = (
  buffer: ArrayBuffer,
  offset: number,
  length: number,
) => Promise<{ buffer: ArrayBuffer; filled: number }>;

function byobFill(reader: ReadableStreamBYOBReader): Fill {
  return async (buffer, offset, length) => {
    let filled = 0;
    while (filled < length) {
      const { done, value } = await reader.read(
        new Uint8Array(buffer, offset + filled, length - filled),
      );
      // The bytes land in the same memory; only the ArrayBuffer object is new.
      if (value) buffer = value.buffer as ArrayBuffer;
      if (done) break;
      filled += value.byteLength;
    }
    return { buffer, filled };
  };
}

function copyingFill(reader: ReadableStreamDefaultReader<Uint8Array>): Fill {
  let rest: Uint8Array | undefined;
  return async (buffer, offset, length) => {
    const target = new Uint8Array(buffer, offset, length);
    let filled = 0;
    while (filled < length) {
      if (!rest || rest.byteLength === 0) {
        const next = await reader.read();
        if (next.done) break;
        rest = next.value;
        continue;
      }
      const taken = Math.min(rest.byteLength, length - filled);
      target.set(rest.subarray(0, taken), filled);
      rest = rest.subarray(taken);
      filled += taken;
    }
    return { buffer, filled };
  };
}

/** A BYOB reader where the body is a byte stream (Chromium's fetch body is), else the default one. */
function openReader(body: ReadableStream<Uint8Array>): {
  fill: Fill;
  reader: ReadableStreamBYOBReader | ReadableStreamDefaultReader<Uint8Array>;
} {
  try {
    const reader = body.getReader({ mode: 'byob' });
    return { fill: byobFill(reader), reader };
  } catch {
    const reader = body.getReader();
    return { fill: copyingFill(reader), reader };
  }
}

/**
 * The body's envelopes, each read into the same buffer (grown only for a larger message than any
 * before). The consumer must be done with one envelope's `data` before asking for the next. The
 * body is released when the iteration ends, and cancelled when it ends early.
 */
export async function* reusedBufferEnvelopes(
  body: ReadableStream<Uint8Array>,
  initialBytes = 64 * 1024,
  readMaxBytes = 0xffffffff,
): AsyncGenerator<ReusedEnvelope, void, undefined> {
  const { fill, reader } = openReader(body);
  let buffer = new ArrayBuffer(Math.max(HEADER_BYTES, initialBytes));
  let finished = false;
  try {
    for (;;) {
      const header = await fill(buffer, 0, HEADER_BYTES);
      buffer = header.buffer;
      if (header.filled === 0) break;
      if (header.filled < HEADER_BYTES) throw incomplete();
      const view = new DataView(buffer);
      const flags = view.getUint8(0);
      const length = view.getUint32(1);
      if (length > readMaxBytes) {
        throw new ConnectError(
          `message size ${length} is larger than configured readMaxBytes ${readMaxBytes}`,
          Code.ResourceExhausted,
        );
      }
      if (HEADER_BYTES + length > buffer.byteLength)
        buffer = new ArrayBuffer(HEADER_BYTES + length);
      const message = await fill(buffer, HEADER_BYTES, length);
      buffer = message.buffer;
      if (message.filled < length) throw incomplete();
      yield { flags, data: new Uint8Array(buffer, HEADER_BYTES, length) };
    }
    finished = true;
  } finally {
    // An early end (an error, a cancel, a consumer that stopped) leaves no download running.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function incomplete(): ConnectError {
  return new ConnectError('protocol error: incomplete envelope', Code.InvalidArgument);
}
