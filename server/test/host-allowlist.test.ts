import http from 'node:http';
import http2 from 'node:http2';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostAllowlist } from '../src/http/host-allowlist.js';
import { startTestServer, type TestServer } from './support/test-server.js';

describe('createHostAllowlist', () => {
  it('allows loopback names, IP literals, this machine and the listen name; refuses others', () => {
    const allowed = createHostAllowlist([], 'store.internal');
    for (const host of [
      'localhost',
      'localhost:8080',
      'console.localhost:8080',
      '127.0.0.1:8080',
      '[::1]:8080',
      '10.1.2.3',
      'LOCALHOST',
      'localhost.',
      'store.internal:8080',
      hostname(),
    ]) {
      expect(allowed(host), host).toBe(true);
    }
    for (const host of ['evil.example', 'evil.example:8080', 'localhost.evil.example', '']) {
      expect(allowed(host), host).toBe(false);
    }
  });

  it('adds configured names and .suffixes; * allows every name', () => {
    const allowed = createHostAllowlist(['console.example.com', '.corp.example'], '0.0.0.0');
    expect(allowed('console.example.com:443')).toBe(true);
    expect(allowed('a.corp.example')).toBe(true);
    expect(allowed('corp.example.evil')).toBe(false);
    expect(createHostAllowlist(['*'], '127.0.0.1')('anything.example')).toBe(true);
  });
});

// DNS rebinding: a page on evil.example re-points its name at this server and calls the API
// same-origin. With STORE_TRUSTED_TENANT an anonymous caller is an admin, so it must be refused.
describe('a request whose Host is a foreign name, with STORE_TRUSTED_TENANT', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer('sqlite', {
      STORE_AUTHORIZER: 'allow-all',
      STORE_TRUSTED_TENANT: 'default',
      STORE_ALLOWED_HOSTS: 'console.example.com',
    });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  function http1(path: string, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const url = new URL(path, t.server.httpUrl);
      const req = http.request(
        url,
        {
          method: 'POST',
          headers: { host, 'content-type': 'application/json', 'connect-protocol-version': '1' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
  }

  function h2c(path: string, authority: string): Promise<number> {
    const session = http2.connect(t.server.grpcUrl);
    return new Promise<number>((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': path,
        ':authority': authority,
        'content-type': 'application/json',
        'connect-protocol-version': '1',
      });
      let status = 0;
      stream.on('response', (h) => (status = Number(h[':status'])));
      stream.resume();
      stream.on('close', () => resolve(status));
      stream.on('error', reject);
      stream.end('{}');
    }).finally(() => session.close());
  }

  const whoAmI = '/store.identity.v1.IdentityService/WhoAmI';

  it('is refused with 421 on both listeners; an allowed name is served', async () => {
    expect(await http1(whoAmI, 'evil.example:8080')).toBe(421);
    expect(await h2c(whoAmI, 'evil.example')).toBe(421);
    expect(await http1(whoAmI, 'console.example.com')).toBe(200);
    expect(await http1(whoAmI, `localhost:${new URL(t.server.httpUrl).port}`)).toBe(200);
    expect(await h2c(whoAmI, '127.0.0.1')).toBe(200);
  });

  it('health still answers any Host (probes use IPs and cluster names)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(new URL('/healthz', t.server.httpUrl), { headers: { host: 'store_http' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(200);
  });
});
