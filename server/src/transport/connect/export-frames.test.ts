import { once } from 'node:events';
import { createServer as createHttpServer, get, type ServerResponse } from 'node:http';
import { connect, createServer as createH2cServer, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { fromBinary } from '@bufbuild/protobuf';
import { backupV1 } from '@store/contract';
import { describe, expect, it } from 'vitest';
import {
  ExportChunkHandoff,
  ExportFramingError,
  COPY_BELOW_BYTES,
  frame,
  framedBody,
} from './export-frames.js';

/** The envelope a body chunk list makes, split back into flags and the decoded message. */
function decode(parts: Uint8Array[]): { flags: number; data: Uint8Array } {
  const whole = Buffer.concat(parts);
  const length = whole.readUInt32BE(1);
  expect(whole.length).toBe(5 + length);
  const message = fromBinary(backupV1.ArtifactChunkSchema, whole.subarray(5));
  return { flags: whole[0]!, data: message.data };
}

const EMPTY_MESSAGE = new Uint8Array(5);

function trailerFrame(status: number): Uint8Array {
  const text = Buffer.from(`grpc-status: ${status}\r\n`);
  const out = Buffer.alloc(5 + text.length);
  out[0] = 0x80;
  out.writeUInt32BE(text.length, 1);
  text.copy(out, 5);
  return out;
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const chunk of body) out.push(chunk);
  return out;
}

async function* from(...chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const chunk of chunks) yield chunk;
}

describe('frame', () => {
  it.each([1, 127, 128, 16_383, 16_384, 262_143, 262_144, 1024 * 1024, 1024 * 1024 + 7])(
    'makes an envelope protobuf decodes as an ArtifactChunk of %i bytes',
    (size) => {
      const data = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4093) data[i] = i % 251;
      const { flags, data: decoded } = decode(frame(data));
      expect(flags).toBe(0);
      expect(Buffer.from(decoded).equals(data)).toBe(true);
    },
  );

  it('passes a large chunk on as the view it is, and copies a small one with its header', () => {
    const block = Buffer.alloc(2 * 1024 * 1024);
    const large = block.subarray(0, 1024 * 1024);
    const [head, body] = frame(large);
    expect(head!.length).toBeLessThan(16);
    expect(body).toBe(large);
    const small = block.subarray(0, 64 * 1024);
    const parts = frame(small);
    expect(parts).toHaveLength(1);
    expect(parts[0]!.buffer).not.toBe(block.buffer);
  });
});

describe('framedBody', () => {
  it('replaces each placeholder with the chunk handed over for it, in order', async () => {
    const handoff = new ExportChunkHandoff();
    const chunks = [Buffer.from('first'), Buffer.alloc(300 * 1024, 7), Buffer.from('last')];
    async function* connectBody(): AsyncGenerator<Uint8Array> {
      for (const chunk of chunks) {
        expect(handoff.carry(chunk)).toEqual({});
        yield EMPTY_MESSAGE;
      }
      yield trailerFrame(0);
    }
    const out = await collect(framedBody(connectBody(), handoff));
    const whole = Buffer.concat(out);
    const received: Buffer[] = [];
    let at = 0;
    for (; whole[at] === 0; at += 5 + whole.readUInt32BE(at + 1)) {
      received.push(
        Buffer.from(decode([whole.subarray(at, at + 5 + whole.readUInt32BE(at + 1))]).data),
      );
    }
    expect(received).toEqual(chunks);
    expect(whole.subarray(at)).toEqual(Buffer.from(trailerFrame(0)));
  });

  it('passes through a body whose implementation handed nothing over', async () => {
    const handoff = new ExportChunkHandoff();
    const message = Buffer.from([0, 0, 0, 0, 2, 0x0a, 0]);
    const out = await collect(framedBody(from(EMPTY_MESSAGE, message, trailerFrame(0)), handoff));
    expect(out).toEqual([EMPTY_MESSAGE, message, trailerFrame(0)]);
  });

  it('an empty chunk stays the empty message it already is', async () => {
    const handoff = new ExportChunkHandoff();
    async function* connectBody(): AsyncGenerator<Uint8Array> {
      handoff.carry(new Uint8Array(0));
      yield EMPTY_MESSAGE;
    }
    expect(await collect(framedBody(connectBody(), handoff))).toEqual([EMPTY_MESSAGE]);
  });

  it('drops the waiting chunk when the call ends before its message (an error trailer)', async () => {
    const handoff = new ExportChunkHandoff();
    async function* connectBody(): AsyncGenerator<Uint8Array> {
      handoff.carry(Buffer.from('never sent'));
      yield trailerFrame(7);
    }
    expect(await collect(framedBody(connectBody(), handoff))).toEqual([trailerFrame(7)]);
    expect(handoff.pending).toBe(false);
  });

  it('fails the call rather than pair a chunk with a message that is not its placeholder', async () => {
    const handoff = new ExportChunkHandoff();
    async function* connectBody(): AsyncGenerator<Uint8Array> {
      handoff.carry(Buffer.from('waiting'));
      yield Buffer.from([0, 0, 0, 0, 3, 0x0a, 1, 9]);
    }
    await expect(collect(framedBody(connectBody(), handoff))).rejects.toBeInstanceOf(
      ExportFramingError,
    );
  });

  it('fails the call when a second chunk is handed over before the first went out', () => {
    const handoff = new ExportChunkHandoff();
    handoff.carry(Buffer.from('one'));
    expect(() => handoff.carry(Buffer.from('two'))).toThrow(ExportFramingError);
  });

  it('a compressed envelope while a chunk waits fails the call (export responses never are)', async () => {
    const handoff = new ExportChunkHandoff();
    async function* connectBody(): AsyncGenerator<Uint8Array> {
      handoff.carry(Buffer.from('waiting'));
      yield Buffer.from([1, 0, 0, 0, 1, 0]);
    }
    await expect(collect(framedBody(connectBody(), handoff))).rejects.toBeInstanceOf(
      ExportFramingError,
    );
  });
});

/**
 * What frame() relies on: a chunk it passes on uncopied is at least COPY_BELOW_BYTES, and a write
 * that large makes Node's response ask for 'drain' (connect then waits until the bytes left Node's
 * buffers before the engine may reuse the block). A Node whose high-water mark grew past it fails
 * here instead of sending reused bytes.
 */
describe("Node's responses, as frame() assumes", () => {
  const large = Buffer.alloc(COPY_BELOW_BYTES);

  it('an HTTP/1.1 response asks for drain after a write of COPY_BELOW_BYTES', async () => {
    let returned: boolean | undefined;
    const server = createHttpServer((_req, res: ServerResponse) => {
      res.writeHead(200);
      returned = res.write(large);
      res.end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve, reject) => {
        get(`http://127.0.0.1:${port}/`, (res) => {
          res.resume();
          res.on('end', resolve);
        }).on('error', reject);
      });
      expect(returned).toBe(false);
    } finally {
      server.close();
    }
  });

  it('an HTTP/2 response asks for drain after a write of COPY_BELOW_BYTES', async () => {
    let returned: boolean | undefined;
    const server = createH2cServer((_req, res: Http2ServerResponse) => {
      res.writeHead(200);
      returned = res.write(large);
      res.end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const stream = session.request({ ':path': '/' });
      stream.resume();
      await once(stream, 'end');
      expect(returned).toBe(false);
    } finally {
      session.close();
      server.close();
    }
  });
});
