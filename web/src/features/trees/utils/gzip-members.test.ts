import { describe, expect, it } from 'vitest';
import { GzipError, gunzipMembers, isGzip } from './gzip-members';

const encoder = new TextEncoder();

/** One gzip member as CompressionStream writes it (deflate-compressed). */
async function member(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** One gzip member of stored (uncompressed) deflate blocks: its bytes appear as they are. */
function storedMember(data: Uint8Array): Uint8Array {
  const header = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
  const block = [
    1,
    data.length & 0xff,
    data.length >> 8,
    ~data.length & 0xff,
    (~data.length >> 8) & 0xff,
  ];
  const trailer = new DataView(new ArrayBuffer(8));
  trailer.setUint32(0, crc32(data), true);
  trailer.setUint32(4, data.length, true);
  return concat([
    new Uint8Array(header),
    new Uint8Array(block),
    data,
    new Uint8Array(trailer.buffer),
  ]);
}

function crc32(data: Uint8Array): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Streams the bytes in small chunks, so boundaries fall inside headers too. */
function chunked(bytes: Uint8Array, size = 7): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) controller.close();
      else controller.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let out = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out + decoder.decode();
    out += decoder.decode(value, { stream: true });
  }
}

describe('gunzipMembers', () => {
  it('reads every member of a multi-member file, in order', async () => {
    const parts = ['{"key":"a"}\n', '{"key":"b"}\n'.repeat(500), '{"key":"c"}\n'];
    const file = concat(await Promise.all(parts.map(member)));
    expect(await text(gunzipMembers(chunked(file)).stream)).toBe(parts.join(''));
  });

  it('passes over gzip magic bytes that occur inside a member', async () => {
    // A stored block carries its bytes verbatim: a fake member header sits inside the data.
    const inner = concat([
      encoder.encode('before '),
      new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7]),
      encoder.encode(' after'),
    ]);
    const file = concat([storedMember(inner), await member('second')]);
    const out = new Uint8Array(
      await new Response(gunzipMembers(chunked(file, 3)).stream).arrayBuffer(),
    );
    expect(out).toEqual(concat([inner, encoder.encode('second')]));
  });

  it('gives the compression ratio of the member being read, for progress in file bytes', async () => {
    const first = await member('x'.repeat(10_000));
    const gunzipped = gunzipMembers(chunked(first, 1000));
    await text(gunzipped.stream);
    expect(gunzipped.fileBytesPerByte()).toBeCloseTo(first.length / 10_000);
  });

  it('fails with a clear error on a file cut short', async () => {
    const whole = await member('{"key":"a","value":1}\n'.repeat(100));
    const cut = whole.subarray(0, whole.length - 5);
    await expect(text(gunzipMembers(chunked(cut)).stream)).rejects.toThrow(GzipError);
    await expect(text(gunzipMembers(chunked(cut)).stream)).rejects.toThrow('damaged or cut short');
  });

  it('refuses a member whose trailer does not match its output, and junk after the last', async () => {
    const first = await member('{"key":"a"}\n'.repeat(50));
    first[first.length - 6]! ^= 1; // a bit of the first member's CRC-32
    const damaged = concat([first, await member('{"key":"b"}\n')]);
    await expect(text(gunzipMembers(chunked(damaged)).stream)).rejects.toThrow(GzipError);
    const junk = concat([await member('{"key":"a"}\n'), new Uint8Array([1, 2, 3])]);
    await expect(text(gunzipMembers(chunked(junk)).stream)).rejects.toThrow(GzipError);
  });
});

describe('isGzip', () => {
  it('looks at the magic bytes, not the name', async () => {
    expect(await isGzip(new Blob([await member('x')]))).toBe(true);
    expect(await isGzip(new Blob(['{"key":"a","value":1}']))).toBe(false);
    expect(await isGzip(new Blob([]))).toBe(false);
  });
});
