// Issue 3, Tree data through the real server: concurrent writers on both transports, paging while
// they write, deletes; sequences strictly increase.
import { createClient, type Transport } from '@connectrpc/connect';
import { createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { TreeDataService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.js';
import { DIALECTS } from './support/test-storage.js';
import { bearerInterceptor } from './support/bearer.js';

const TOKEN = 'tree-data-admin-token-0123456789';
const WRITERS = 4;
const PUTS = 15;

describe.each(DIALECTS)('tree data through the server on %s', (dialect) => {
  let t: TestServer;
  let clients: Array<ReturnType<typeof createClient<typeof TreeDataService>>>;
  beforeAll(async () => {
    t = await startTestServer(dialect, { STORE_BOOTSTRAP_TOKEN: TOKEN });
    const withToken = bearerInterceptor(TOKEN);
    const transports: Transport[] = [
      createGrpcTransport({ baseUrl: t.server.grpcUrl, interceptors: [withToken] }),
      createGrpcWebTransport({
        baseUrl: t.server.httpUrl,
        httpVersion: '1.1',
        interceptors: [withToken],
      }),
    ];
    clients = transports.map((transport) => createClient(TreeDataService, transport));
  });
  afterAll(async () => t?.dispose());

  async function listAll(treeId: string, pageSize: number) {
    const keys: string[] = [];
    let pageToken = '';
    do {
      const page = await clients[0]!.listEntries({ treeId, pageSize, pageToken });
      keys.push(...page.entries.map((e) => e.key));
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
    return keys;
  }

  it('concurrent writers on both transports get strictly increasing, distinct sequences; paging sees every key once', async () => {
    const treeId = 'busy';
    const readsWhileWriting: string[][] = [];
    let writing = true;
    const reader = (async () => {
      while (writing) {
        readsWhileWriting.push(await listAll(treeId, 16));
        await new Promise((r) => setTimeout(r, 30));
      }
    })();
    const perWriter = await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        const client = clients[w % clients.length]!;
        const sequences: bigint[] = [];
        for (let n = 0; n < PUTS; n++) {
          const key = `w${w}/${String(n).padStart(3, '0')}`;
          const put = await client.putEntry({ treeId, key, valueJson: JSON.stringify({ w, n }) });
          sequences.push(put.sequence);
        }
        return sequences;
      }),
    );
    writing = false;
    await reader;

    for (const sequences of perWriter) {
      expect(sequences.every((s, i) => i === 0 || s > sequences[i - 1]!)).toBe(true);
    }
    const all = perWriter.flat();
    expect(new Set(all).size).toBe(WRITERS * PUTS);
    // Every page read during the writes was in byte order without repeats.
    expect(readsWhileWriting.length).toBeGreaterThan(0);
    for (const keys of readsWhileWriting) {
      expect(keys).toEqual([...new Set(keys)].sort());
    }
    const keys = await listAll(treeId, 7);
    expect(keys).toHaveLength(WRITERS * PUTS);
    expect(keys).toEqual([...keys].sort());

    // Deletes: half the keys go; gets miss them, a later put gets a higher sequence.
    const doomed = keys.filter((_, i) => i % 2 === 0);
    await Promise.all(
      doomed.map((key, i) => clients[i % clients.length]!.deleteEntry({ treeId, key })),
    );
    expect(await listAll(treeId, 11)).toEqual(keys.filter((_, i) => i % 2 === 1));
    expect((await clients[1]!.getEntry({ treeId, key: doomed[0]! })).found).toBe(false);
    expect((await clients[0]!.deleteEntry({ treeId, key: doomed[0]! })).deleted).toBe(false);
    const after = await clients[1]!.putEntry({ treeId, key: doomed[0]!, valueJson: '1' });
    expect(after.sequence > all.reduce((a, b) => (a > b ? a : b))).toBe(true);
  });

  it('a prefix lists only its keys, in pages', async () => {
    for (const key of ['a/1', 'a/2', 'a/3', 'ab', 'b/1']) {
      await clients[0]!.putEntry({ treeId: 'prefixed', key, valueJson: '0' });
    }
    const page = await clients[1]!.listEntries({
      treeId: 'prefixed',
      keyPrefix: 'a/',
      pageSize: 2,
    });
    expect(page.entries.map((e) => e.key)).toEqual(['a/1', 'a/2']);
    const rest = await clients[1]!.listEntries({
      treeId: 'prefixed',
      keyPrefix: 'a/',
      pageSize: 2,
      pageToken: page.nextPageToken,
    });
    expect(rest.entries.map((e) => e.key)).toEqual(['a/3']);
    expect(rest.nextPageToken).toBe('');
  });
});
