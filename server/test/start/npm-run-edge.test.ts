// Issue 15: `npm run edge` as a user runs it, from a fresh copy of the repository: it prints the
// URL and how to sign in, the console and the API answer through the real Envoy in front of two
// replicas, and Ctrl-C stops Envoy and both replicas and drops the schema it made.
import { createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { IdentityService } from '@store/contract';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmStart, type NpmStart } from '../support/npm-start.js';
import { copyRepository, type RepoCopy } from '../support/repo-copy.js';
import { TEST_DATABASE_URL } from '../support/test-storage.js';

async function schemaExists(schema: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_namespace where nspname = $1', [schema]);
    return found.rowCount === 1;
  } finally {
    await client.end();
  }
}

describe('npm run edge from a fresh copy of the repository', () => {
  let repo: RepoCopy;
  let edge: NpmStart | undefined;
  beforeAll(() => {
    repo = copyRepository('store-npm-edge-');
  });
  afterAll(async () => {
    await edge?.interrupt();
    repo?.remove();
  });

  it('serves the console through Envoy and two replicas, and Ctrl-C stops all of it', async () => {
    edge = npmStart(repo.dir, [], { DATABASE_URL: TEST_DATABASE_URL }, { script: 'edge' });
    const [, url] = await edge.waitForOutput(/through Envoy: (http:\/\/\S+)/, 240_000);
    const [, token] = await edge.waitForOutput(/using:\n {2}(st_\S+)\n/);
    const [, adminUrl] = await edge.waitForOutput(
      /Envoy admin \(stats, clusters\): (http:\/\/\S+)/,
    );
    const [, schema] = await edge.waitForOutput(/schema (edge_\w+);/);
    const baseUrl = url!.replace('localhost', '127.0.0.1');
    expect(edge.output()).toMatch(/server-1 \(h2c :\d+, http :\d+\), server-2/);
    expect(edge.output()).toContain('Ctrl-C stops Envoy and both replicas');

    const page = await fetch(baseUrl);
    expect(page.headers.get('server')).toBe('envoy');
    expect(await page.text()).toContain('<div id="root">');
    const me = await createClient(
      IdentityService,
      createGrpcWebTransport({ baseUrl, httpVersion: '1.1' }),
    ).whoAmI({}, { headers: { authorization: `Bearer ${token}` } });
    expect(me.activeTenant).toBe('default');
    expect((await fetch(`${adminUrl}/clusters`)).ok).toBe(true);
    expect(await schemaExists(schema!)).toBe(true);

    expect(String(await edge.interrupt())).toMatch(/^(0|SIGINT)$/);
    edge = undefined;
    await expect(fetch(baseUrl)).rejects.toThrow();
    await expect(fetch(adminUrl!)).rejects.toThrow();
    expect(await schemaExists(schema!)).toBe(false);
  });
});
