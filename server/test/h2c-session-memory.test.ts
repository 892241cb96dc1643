import { once } from 'node:events';
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';

/** One gRPC call on a raw session: its grpc-status, or the stream's error code when reset. */
function grpcCall(session: http2.ClientHttp2Session, path: string, body: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const stream = session.request({
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    let status: string | undefined;
    stream.on('response', (headers) => {
      if (headers['grpc-status'] !== undefined) status = String(headers['grpc-status']);
    });
    stream.on('trailers', (trailers) => (status = String(trailers['grpc-status'])));
    stream.on('error', (error: NodeJS.ErrnoException) =>
      resolve(`error ${error.code} ${stream.rstCode}`),
    );
    stream.on('close', () => resolve(status ?? `closed ${stream.rstCode}`));
    stream.resume();
    const frame = Buffer.alloc(5);
    frame.writeUInt32BE(body.length, 1);
    stream.end(Buffer.concat([frame, body]));
  });
}

// Envoy multiplexes many clients' calls on one upstream connection: one client's large requests
// must not make the server drop that connection (Node's per-session memory cap) and with it
// everyone else's calls.
describe('h2c session memory', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('answers sixteen concurrent 3.5 MB requests and a small call on one connection', async () => {
    // The client's own cap (10 MB by default) would refuse its later streams itself.
    const session = http2.connect(t.server.grpcUrl, { maxSessionMemory: 1000 });
    session.on('error', () => undefined);
    try {
      await once(session, 'remoteSettings');
      // A PutEntry body: field 1 (tree_id), a 3.5 MB string. Anonymous, so it is refused; what
      // counts is that every call gets its own answer.
      const big = Buffer.alloc(3_500_000, 0x61);
      const header = Buffer.from([0x0a, ...varint(big.length)]);
      const calls = Array.from({ length: 16 }, () =>
        grpcCall(session, '/store.data.v1.TreeDataService/PutEntry', Buffer.concat([header, big])),
      );
      const health = grpcCall(session, '/grpc.health.v1.Health/Check', Buffer.alloc(0));
      const answers = await Promise.all([...calls, health]);
      expect(answers.at(-1)).toBe('0');
      for (const answer of answers.slice(0, -1)) expect(answer).toMatch(/^\d+$/);
    } finally {
      session.close();
    }
  });
});

function varint(value: number): number[] {
  const bytes: number[] = [];
  while (value > 0x7f) {
    bytes.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  bytes.push(value);
  return bytes;
}
