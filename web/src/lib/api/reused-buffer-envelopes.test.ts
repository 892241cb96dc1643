import { ConnectError } from '@connectrpc/connect';
import { encodeEnvelope } from '@connectrpc/connect/protocol';
import { describe, expect, it } from 'vitest';
import { reusedBufferEnvelopes } from './reused-buffer-envelopes';

/** Bytes that differ from one offset to the next, so a misplaced byte shows. */
function bytesOf(length: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + seed + (i >> 8)) & 0xff;
  return bytes;
}

function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return all;
}

/** A body handing out `bytes` in `size`-byte pieces: a byte stream (BYOB) or a default one. */
function body(bytes: Uint8Array, size: number, kind: 'bytes' | 'default') {
  let at = 0;
  let cancelled = false;
  const next = () => {
    const piece = bytes.slice(at, at + size);
    at += size;
    return piece;
  };
  const stream =
    kind === 'bytes'
      ? new ReadableStream({
          type: 'bytes',
          pull(controller) {
            if (at >= bytes.length) {
              controller.close();
              controller.byobRequest?.respond(0);
            } else controller.enqueue(next());
          },
          cancel: () => void (cancelled = true),
        })
      : new ReadableStream<Uint8Array>({
          pull(controller) {
            if (at >= bytes.length) controller.close();
            else controller.enqueue(next());
          },
          cancel: () => void (cancelled = true),
        });
  return { stream, cancelled: () => cancelled };
}

/** Every envelope's flags and a copy of its data (the view is only good until the next one). */
async function readAll(stream: ReadableStream<Uint8Array>, initialBytes?: number) {
  const seen: { flags: number; data: Uint8Array }[] = [];
  for await (const { flags, data } of reusedBufferEnvelopes(stream, initialBytes))
    seen.push({ flags, data: data.slice() });
  return seen;
}

const MESSAGES = [bytesOf(3, 1), bytesOf(0, 2), bytesOf(20_000, 3), bytesOf(1_000, 4)];
const WIRE = concat([
  ...MESSAGES.map((m) => encodeEnvelope(0, m)),
  encodeEnvelope(0x80, new TextEncoder().encode('grpc-status: 0\r\n')),
]);

describe.each(['bytes', 'default'] as const)('reusedBufferEnvelopes (%s stream)', (kind) => {
  // Pieces that cut headers and messages everywhere: 1 byte, 4 (inside a header), 7, 64 KiB.
  it.each([1, 4, 7, 65_536])('reads every envelope whole from %i-byte pieces', async (size) => {
    const seen = await readAll(body(WIRE, size, kind).stream, 16);
    expect(seen.map((e) => e.flags)).toEqual([0, 0, 0, 0, 0x80]);
    expect(seen.slice(0, 4).map((e) => e.data)).toEqual(MESSAGES);
    expect(new TextDecoder().decode(seen[4]!.data)).toBe('grpc-status: 0\r\n');
  });

  it('reads nothing from an empty body', async () => {
    expect(await readAll(body(new Uint8Array(0), 8, kind).stream)).toEqual([]);
  });

  it.each([
    ['inside a header', 3],
    ['inside a message', 5 + 2],
  ])('refuses a body that ends %s', async (_where, length) => {
    const error = await readAll(body(WIRE.slice(0, length), 2, kind).stream).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).rawMessage).toBe('protocol error: incomplete envelope');
  });

  it('cancels the body when the reader stops early', async () => {
    const source = body(WIRE, 7, kind);
    for await (const envelope of reusedBufferEnvelopes(source.stream)) {
      expect(envelope.data.byteLength).toBe(3);
      break;
    }
    expect(source.cancelled()).toBe(true);
  });
});
