import { once } from 'node:events';
import http2 from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { H2C_CONNECTION_WINDOW_BYTES, H2C_STREAM_WINDOW_BYTES } from '../src/http/listeners.js';
import { startTestServer, type TestServer } from './support/test-server.js';

// A large unary request (a PutEntries batch) must not wait on WINDOW_UPDATEs from a busy event
// loop: the h2c listener opens windows wider than HTTP/2's 64 KiB default.
describe('h2c receive windows', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it('lets a client send a whole 1 MiB request body and 8 MiB on the connection unasked', async () => {
    const session = http2.connect(t.server.grpcUrl);
    session.on('error', () => undefined);
    try {
      await once(session, 'remoteSettings');
      expect(session.remoteSettings.initialWindowSize).toBe(H2C_STREAM_WINDOW_BYTES);
      // The connection's window arrives as a WINDOW_UPDATE after the settings: a ping's answer
      // comes after it.
      await new Promise<void>((resolve, reject) =>
        session.ping((error) => (error ? reject(error) : resolve())),
      );
      expect(session.state.remoteWindowSize).toBe(H2C_CONNECTION_WINDOW_BYTES);
    } finally {
      session.close();
    }
  });
});
