import { once } from 'node:events';
import http2 from 'node:http2';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, sendH2 } from './faults/raw-rpc.js';
import { startTestServer, type TestServer } from './support/test-server.js';

const port = (url: string) => Number(new URL(url).port);

/** Resolves with the ms until the socket closed, or undefined if it was still open at `waitMs`. */
function closedWithin(socket: net.Socket, waitMs: number): Promise<number | undefined> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), waitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

async function rawSocket(portNumber: number): Promise<net.Socket> {
  const socket = net.connect(portNumber, '127.0.0.1');
  socket.on('error', () => undefined);
  // Read (and drop) what the server sends: a socket nobody reads from may never notice the
  // server's reset, and then looks open although the server closed it (seen under load in CI).
  socket.resume();
  await once(socket, 'connect');
  return socket;
}

describe('h2c timeouts', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { STORE_HANDSHAKE_TIMEOUT: '1', STORE_IDLE_TIMEOUT: '1' });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('closes a socket that never sends the HTTP/2 preface', async () => {
    // Its own server, with an idle timeout far past the wait: only the handshake timeout can
    // close this socket (the shared server's 1 s idle timeout would close it too).
    const own = await startTestServer('sqlite', {
      STORE_HANDSHAKE_TIMEOUT: '1',
      STORE_IDLE_TIMEOUT: '600',
    });
    try {
      const socket = await rawSocket(port(own.server.grpcUrl));
      expect(await closedWithin(socket, 8_000)).toBeDefined();
    } finally {
      await own.dispose();
    }
  });

  it('closes a session that has no call open for the idle timeout, after serving one', async () => {
    const session = http2.connect(t.server.grpcUrl);
    session.on('error', () => undefined);
    const outcome = await sendH2(
      session,
      '/grpc.health.v1.Health/Check',
      { 'content-type': 'application/grpc' },
      envelope(0, new Uint8Array(0)),
    );
    expect(outcome.grpcCode).toBe(0);
    const closed = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 8_000);
      session.once('goaway', () => {
        clearTimeout(timer);
        resolve(true);
      });
      session.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    expect(await closed).toBe(true);
    session.destroy();
  });
});

describe('connection cap', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', { STORE_MAX_CONNECTIONS: '3' });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it.each(['httpUrl', 'grpcUrl'] as const)(
    'on the %s listener, a connection past STORE_MAX_CONNECTIONS is closed at once, and one is accepted again after they leave',
    async (listener) => {
      const target = port(t.server[listener]);
      const held = [await rawSocket(target), await rawSocket(target), await rawSocket(target)];
      // Accepting is asynchronous: give the server a moment to count the three.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const extra = await rawSocket(target);
      expect(await closedWithin(extra, 3_000)).toBeDefined();
      const stillOpen = await Promise.all(held.map((s) => closedWithin(s, 100)));
      expect(stillOpen).toEqual([undefined, undefined, undefined]);
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await rawSocket(target);
      expect(await closedWithin(again, 300)).toBeUndefined();
      again.destroy();
    },
  );
});

describe('stopping', () => {
  it('ends within the grace even when an h2c client never reads its response', async () => {
    const t = await startTestServer('sqlite', { STORE_SHUTDOWN_GRACE_MS: '500' });
    const session = http2.connect(t.server.grpcUrl);
    session.on('error', () => undefined);
    await new Promise<void>((resolve) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/store.identity.v1.IdentityService/WhoAmI',
        'content-type': 'application/json',
        'connect-protocol-version': '1',
      });
      stream.on('error', () => undefined);
      // The response arrives; its body is never read, so the stream never closes.
      stream.on('response', () => resolve());
      stream.end('{}');
    });
    const stopped = await Promise.race([
      t.dispose().then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
    ]);
    session.destroy();
    expect(stopped).toBe(true);
  });
});
