// Issue 17 (writes): PutEntries and group commit through the real server and real gRPC clients.
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { StoreSchemaDeadLetterReason, TreeDataService } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { NAMED, as, codeOf, useSchemaHarness } from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

const entries = (n: number, prefix = 'k') =>
  Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, valueJson: `{"name":"n${i}"}` }));

describe.each(DIALECTS)('PutEntries through the server on %s', (dialect) => {
  const h = useSchemaHarness(dialect);
  const grpc = () => createClient(TreeDataService, h.t.grpc);
  const web = () => createClient(TreeDataService, h.t.grpcWeb);

  it('writes 1 000 entries with one consecutive sequence range, on gRPC and gRPC-Web', async () => {
    const first = await grpc().putEntries({ treeId: 'bulk', entries: entries(1000) }, h.admin);
    expect(first.results.map((r) => r.sequence)).toEqual(
      Array.from({ length: 1000 }, (_, i) => BigInt(i + 1)),
    );
    const second = await web().putEntries(
      { treeId: 'bulk', entries: entries(3, 'web') },
      as(h.tokens.operator),
    );
    expect(second.results.map((r) => r.sequence)).toEqual([1001n, 1002n, 1003n]);
    const { trees } = await grpc().listTrees({}, h.admin);
    expect(trees.find((tree) => tree.treeId === 'bulk')?.entryCount).toBe(1003n);
  });

  it('applies the schema guard per entry: violations are dead letters, the rest is written', async () => {
    await h.schema.setPolicy('people', { jsonSchema: NAMED, version: 1 }, h.admin);
    const { results } = await grpc().putEntries(
      {
        treeId: 'people',
        entries: [
          { key: 'ann', valueJson: '{"name":"Ann"}' },
          { key: 'bob', valueJson: '{"age":3}' },
          { key: 'cy', valueJson: '{"name":"Cy"}' },
        ],
      },
      h.admin,
    );
    expect(results.map((r) => [r.sequence, r.deadLettered, r.deadLetterReason])).toEqual([
      [1n, false, undefined],
      [0n, true, 'SCHEMA_VIOLATION'],
      [2n, false, undefined],
    ]);
    const letters = [];
    for await (const letter of h.schema.streamDeadLetters('people', h.admin)) letters.push(letter);
    expect(letters).toMatchObject([
      { key: 'bob', reason: StoreSchemaDeadLetterReason.SCHEMA_VIOLATION },
    ]);
    expect(await h.get('people', 'bob')).toBeUndefined();
  });

  it('more than 1 000 entries, or a bad entry, is InvalidArgument naming it; nothing is written', async () => {
    const tooMany = await grpc()
      .putEntries({ treeId: 'refused', entries: entries(1001) }, h.admin)
      .catch((error: unknown) => ConnectError.from(error));
    expect(tooMany).toMatchObject({ code: Code.InvalidArgument });
    expect((tooMany as ConnectError).rawMessage).toContain('entries');
    const badJson = [...entries(2), { key: 'x', valueJson: '{"a":' }];
    const error = await web()
      .putEntries({ treeId: 'refused', entries: badJson }, h.admin)
      .catch((e: unknown) => ConnectError.from(e));
    expect(error).toMatchObject({ code: Code.InvalidArgument });
    expect((error as ConnectError).rawMessage).toMatch(/^entries\[2\]\.value_json: /);
    // A NUL is refused by the transport's text guard, which names the entry as the engine does.
    const nul = await grpc()
      .putEntries(
        { treeId: 'refused', entries: [...entries(1), { key: 'a\0b', valueJson: '1' }] },
        h.admin,
      )
      .catch((e: unknown) => ConnectError.from(e));
    expect((nul as ConnectError).rawMessage).toMatch(/^entries\[1\]\.key: /);
    const badKey = [{ key: '', valueJson: '1' }];
    expect(await codeOf(grpc().putEntries({ treeId: 'refused', entries: badKey }, h.admin))).toBe(
      Code.InvalidArgument,
    );
    const { trees } = await grpc().listTrees({}, h.admin);
    expect(trees.map((tree) => tree.treeId)).not.toContain('refused');
  });

  it('a request over the message limit is ResourceExhausted; a viewer is PermissionDenied', async () => {
    const big = Array.from({ length: 1000 }, (_, i) => ({
      key: `big${i}`,
      valueJson: JSON.stringify({ pad: 'x'.repeat(5000) }),
    }));
    expect(await codeOf(grpc().putEntries({ treeId: 'big', entries: big }, h.admin))).toBe(
      Code.ResourceExhausted,
    );
    expect(
      await codeOf(grpc().putEntries({ treeId: 'v', entries: entries(1) }, as(h.tokens.viewer))),
    ).toBe(Code.PermissionDenied);
  });

  it('16 concurrent PutEntry calls to one tree get sequences 1…16, each once, all stored', async () => {
    const client = grpc();
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        client.putEntry({ treeId: 'hot', key: `k${i}`, valueJson: `${i}` }, h.admin),
      ),
    );
    expect(results.map((r) => Number(r.sequence)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    for (const [i, result] of results.entries()) {
      expect((await h.get('hot', `k${i}`))?.sequence).toBe(result.sequence);
    }
  });
});
