// Issue 3/4: the shipped entry point on an empty data directory starts with no flags, prints the
// console URL and a first admin token, and that token signs in at once.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { IdentityService } from '@store/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnServer, type ServerProcess } from './support/server-process.js';

describe('first start of the shipped server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'store-first-start-'));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('on an empty data directory it prints the URL and where the one-time admin token is, and it signs in', async () => {
    const startedAt = Date.now();
    // No flags; only the data directory and free ports, so it cannot clash with anything running.
    server = await spawnServer({
      STORE_DATA_DIR: dataDir,
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
    });
    // stdout is a pipe here (as in a container): the token is in a file only this user reads,
    // and neither the JSON log lines nor anything else printed holds it.
    const [, file] = await server.waitForOutput(/using the token in the file:\n {2}(\S+)\n/);
    expect(file).toBe(join(dataDir, 'bootstrap-token'));
    const token = readFileSync(file!, 'utf8').trim();
    expect(token).toMatch(/^st_/);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(server.output()).not.toContain(token);
    // The JSON log names the file, for collectors.
    const logged = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg: string; file?: string });
    expect(logged.find((line) => line.file !== undefined)).toMatchObject({
      msg: 'first admin token written to a file (mode 0600)',
      file,
    });
    const me = await createClient(
      IdentityService,
      createGrpcWebTransport({ baseUrl: server.httpUrl, httpVersion: '1.1' }),
    ).whoAmI({}, { headers: { authorization: `Bearer ${token}` } });
    expect(me.activeTenant).toBe('default');
    expect(me.tenants).toEqual([
      expect.objectContaining({ tenantId: 'default', roles: ['admin'] }),
    ]);
    expect(Date.now() - startedAt).toBeLessThan(60_000);
    const health = await fetch(`${server.httpUrl}/healthz`);
    expect(await health.json()).toEqual({ status: 'SERVING' });
  });
});
