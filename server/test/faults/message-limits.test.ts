import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import { gzipSync } from 'node:zlib';
import { toBinary, create } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient, type Interceptor } from '@connectrpc/connect';
import { createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { PutEntryRequestSchema, TreeDataService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from '../support/test-storage.js';
import { envelope, sendH2, sendHttp1, type RawOutcome } from './raw-rpc.js';
import { spawnServer, type ServerProcess } from './spawn-server.js';

const LIMIT = 1024 * 1024;
// connect's Code enum has no member for success.
const GRPC_OK = 0;
const PUT_ENTRY = '/store.data.v1.TreeDataService/PutEntry';

/** Peak resident memory of a process (VmHWM), in bytes. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/**
 * A gzip stream of `mib` MiB of JSON-ish bytes that is itself tiny: the same small member
 * repeated (a gzip stream may hold many members; every inflater reads them all).
 */
function gzipBomb(mib: number): Buffer {
  const member = gzipSync(Buffer.alloc(1024 * 1024, 0x20), { level: 9 });
  return Buffer.concat(Array.from({ length: mib }, () => member));
}

describe('message size limits (STORE_MAX_MESSAGE_BYTES)', () => {
  let location: TestStorageLocation;
  let server: ServerProcess;
  let token: string;
  beforeAll(async () => {
    location = newStorageLocation('sqlite');
    server = await spawnServer(location, { env: { STORE_MAX_MESSAGE_BYTES: String(LIMIT) } });
    token = server.bootstrapToken;
  });
  afterAll(async () => {
    await server?.kill();
    if (location) await removeStorageLocation(location);
  });

  function clients() {
    const auth: Interceptor = (next) => (req) => {
      req.header.set('authorization', `Bearer ${token}`);
      return next(req);
    };
    return {
      grpcWeb: createClient(
        TreeDataService,
        createGrpcWebTransport({
          baseUrl: server.httpUrl,
          httpVersion: '1.1',
          interceptors: [auth],
        }),
      ),
      grpc: createClient(
        TreeDataService,
        createGrpcTransport({ baseUrl: server.grpcUrl, interceptors: [auth] }),
      ),
    };
  }

  /** A valid PutEntry of `size` bytes: a small value plus an unknown field as ballast. */
  function putEntryOfSize(key: string, size: number): Uint8Array {
    const valid = toBinary(
      PutEntryRequestSchema,
      create(PutEntryRequestSchema, { treeId: 'limits', key, valueJson: '1' }),
    );
    // Field 1000, length-delimited: a 2-byte tag and a 3-byte length, then the ballast.
    const ballast = size - valid.length - 5;
    const header = [
      0xc2,
      0x3e,
      0x80 | (ballast & 0x7f),
      0x80 | ((ballast >> 7) & 0x7f),
      ballast >> 14,
    ];
    return Buffer.concat([valid, Buffer.from(header), Buffer.alloc(ballast, 0x61)]);
  }

  it('a message of exactly the limit is accepted and one byte more is ResourceExhausted, on both listeners', async () => {
    const agent = new http.Agent({ keepAlive: true });
    const session = http2.connect(server.grpcUrl);
    const auth = { authorization: `Bearer ${token}` };
    const send = (listener: string, body: Uint8Array) =>
      listener === 'grpc'
        ? sendH2(
            session,
            PUT_ENTRY,
            { ...auth, 'content-type': 'application/grpc' },
            envelope(0, body),
          )
        : sendHttp1(
            agent,
            server.httpUrl,
            PUT_ENTRY,
            { ...auth, 'content-type': 'application/grpc-web+proto' },
            envelope(0, body),
          );
    for (const listener of ['grpc', 'grpcWeb']) {
      const fits = putEntryOfSize(`fits-${listener}`, LIMIT);
      expect(fits.length).toBe(LIMIT);
      const accepted = await send(listener, fits);
      expect(accepted.grpcCode, `${listener}: ${accepted.message}`).toBe(GRPC_OK);
      const refused = await send(listener, putEntryOfSize(`over-${listener}`, LIMIT + 1));
      expect(refused.grpcCode, listener).toBe(Code.ResourceExhausted);
      expect(refused.message).toMatch(/readMaxBytes/);
    }
    agent.destroy();
    session.close();
    const data = clients().grpc;
    expect((await data.getEntry({ treeId: 'limits', key: 'fits-grpc' })).entry).toBeDefined();
    expect((await data.getEntry({ treeId: 'limits', key: 'over-grpc' })).entry).toBeUndefined();
    // The typed clients (what the console and Envoy speak) see the same refusal.
    for (const [name, client] of Object.entries(clients())) {
      const refused = await client
        .putEntry({
          treeId: 'limits',
          key: `typed-${name}`,
          valueJson: JSON.stringify('o'.repeat(LIMIT)),
        })
        .then(
          () => undefined,
          (error: unknown) => ConnectError.from(error),
        );
      expect(refused?.code, name).toBe(Code.ResourceExhausted);
    }
  });

  it('a small gzip body that inflates far past the limit is ResourceExhausted without being inflated', async () => {
    const inflatedMiB = 256;
    const bomb = gzipBomb(inflatedMiB);
    expect(bomb.length).toBeLessThan(LIMIT); // it passes the limit on the wire
    const agent = new http.Agent({ keepAlive: true });
    const session = http2.connect(server.grpcUrl);
    const auth = { authorization: `Bearer ${token}` };
    const before = peakRss(server.child.pid ?? 0);
    const outcomes: Record<string, RawOutcome> = {
      grpc: await sendH2(
        session,
        PUT_ENTRY,
        { ...auth, 'content-type': 'application/grpc', 'grpc-encoding': 'gzip' },
        envelope(1, bomb),
      ),
      grpcWeb: await sendHttp1(
        agent,
        server.httpUrl,
        PUT_ENTRY,
        { ...auth, 'content-type': 'application/grpc-web+proto', 'grpc-encoding': 'gzip' },
        envelope(1, bomb),
      ),
      connect: await sendHttp1(
        agent,
        server.httpUrl,
        PUT_ENTRY,
        { ...auth, 'content-type': 'application/proto', 'content-encoding': 'gzip' },
        bomb,
      ),
    };
    const growth = peakRss(server.child.pid ?? 0) - before;
    agent.destroy();
    session.close();
    for (const [name, outcome] of Object.entries(outcomes)) {
      expect(outcome.grpcCode, `${name}: ${outcome.message}`).toBe(Code.ResourceExhausted);
    }
    // Inflating even one bomb would take 256 MiB; the inflater stops at the limit instead.
    console.log(`peak RSS of the server grew by ${(growth / 2 ** 20).toFixed(1)} MiB`);
    expect(growth).toBeLessThan((inflatedMiB / 4) * 2 ** 20);
    expect(server.alive()).toBe(true);
    expect(
      (await clients().grpc.getEntry({ treeId: 'limits', key: 'bomb' })).entry,
    ).toBeUndefined();
  });
});
