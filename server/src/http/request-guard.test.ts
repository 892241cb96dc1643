import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logging/logger.js';
import { guardRequests, type RequestHandler } from './request-guard.js';
import { decodedPath } from './static-files.js';

const logger = createLogger('silent');
let server: Server | undefined;

async function serve(handler: RequestHandler): Promise<number> {
  server = createServer(guardRequests(handler, logger));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return (server.address() as AddressInfo).port;
}

function get(port: number, path: string, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ port, path, host: '127.0.0.1', headers: host ? { host } : {} }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

afterEach(() => {
  server?.close();
  server = undefined;
});

describe('guardRequests', () => {
  it('when a handler throws, the request is answered 500 and the process goes on', async () => {
    const port = await serve(() => {
      throw new Error('boom');
    });
    expect(await get(port, '/x')).toBe(500);
    expect(await get(port, '/x')).toBe(500);
  });

  it("when a handler's promise rejects, the request is answered 500", async () => {
    const port = await serve(async () => {
      await Promise.resolve();
      throw new Error('late boom');
    });
    expect(await get(port, '/x')).toBe(500);
  });

  it('a path that does not decode or a Host no URL parser takes never reaches the handler', async () => {
    let reached = 0;
    const port = await serve((_req, res) => {
      reached++;
      res.end('ok');
    });
    expect(await get(port, '/%E0')).toBe(400);
    expect(await get(port, '/a%00b')).toBe(400);
    expect(await get(port, '/', 'a%zz')).toBe(400);
    expect(reached).toBe(0);
    expect(await get(port, '/%C3%A9?x=%E0')).toBe(200);
    expect(reached).toBe(1);
  });
});

describe('decodedPath', () => {
  it('decodes an origin-form target and refuses what does not decode', () => {
    expect(decodedPath('/a%20b?x=%E0')).toBe('/a b');
    expect(decodedPath('//')).toBe('//');
    expect(decodedPath('/%E0')).toBeUndefined();
    expect(decodedPath('/%00')).toBeUndefined();
    expect(decodedPath('*')).toBeUndefined();
  });
});
