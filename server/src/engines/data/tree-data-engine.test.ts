import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../../storage/database.js';
import { resolveTree } from '../../storage/data/tree-store.js';
import { TreeDataEngine, type TreeDataEngineOptions } from './tree-data-engine.js';

const T = 'acme';

describe.each(DIALECTS)('TreeDataEngine on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  let now: number;
  let engine: TreeDataEngine;
  const make = (options: Partial<TreeDataEngineOptions> = {}) =>
    new TreeDataEngine({ storage, clock: () => now, ...options });
  beforeEach(async () => {
    storage = await freshStorage();
    now = 1_700_000_000_000;
    engine = make();
  });

  const allKeys = async (tree: string, keyPrefix = '', pageSize = 1000) =>
    (await engine.listEntries(T, tree, { keyPrefix, pageSize })).entries.map((e) => e.key);

  it('stores the canonical form of the value and reads it back with its metadata', async () => {
    const put = await engine.putEntry(T, 'orders', 'o-1', ' { "b": [1, {"z":0,"y":1}], "a": "x" } ');
    expect(put).toEqual({ sequence: 1, deadLettered: false });
    expect(await engine.getEntry(T, 'orders', 'o-1')).toEqual({
      key: 'o-1',
      valueJson: '{"a":"x","b":[1,{"y":1,"z":0}]}',
      sequence: 1,
      schemaVersion: 0,
      updatedAt: now,
    });
  });

  it('when value_json is not JSON, put is InvalidArgument with the parser’s message', async () => {
    let parserMessage = '';
    try {
      JSON.parse('{"a":');
    } catch (error) {
      parserMessage = (error as Error).message;
    }
    await expect(engine.putEntry(T, 'orders', 'k', '{"a":')).rejects.toMatchObject({
      code: 'invalid_argument',
      field: 'value_json',
      message: `value_json: ${parserMessage}`,
    });
    await expect(engine.putEntry(T, 'orders', 'k', '')).rejects.toMatchObject({
      field: 'value_json',
    });
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    await expect(engine.putEntry(T, 'orders', 'k', deep)).rejects.toMatchObject({
      code: 'invalid_argument',
      field: 'value_json',
    });
    expect(await resolveTree(storage, T, 'orders')).toBeUndefined();
  });

  it('when the value is over maxValueBytes, put is ResourceExhausted', async () => {
    engine = make({ maxValueBytes: 16 });
    await expect(engine.putEntry(T, 't', 'k', JSON.stringify('x'.repeat(20)))).rejects.toMatchObject(
      { code: 'resource_exhausted' },
    );
    // Whitespace does not count once canonical, but the raw text is capped too.
    await expect(engine.putEntry(T, 't', 'k', `${' '.repeat(20)}1`)).rejects.toMatchObject({
      code: 'resource_exhausted',
    });
    // 1e15 is 5 bytes as sent but 16 canonical; 1e16 is 17 canonical.
    expect((await engine.putEntry(T, 't', 'k', '1e15')).sequence).toBe(1);
    await expect(engine.putEntry(T, 't', 'k', '1e16')).rejects.toMatchObject({
      code: 'resource_exhausted',
    });
  });

  it('when the tree name, tenant or key is malformed, every method is InvalidArgument on that field', async () => {
    const badNames = ['', '..', '../x', 't/other/x', '%2e%2e', 'a\0', 'tрее', 'x'.repeat(10240)];
    for (const name of badNames) {
      for (const call of [
        () => engine.putEntry(T, name, 'k', '1'),
        () => engine.getEntry(T, name, 'k'),
        () => engine.deleteEntry(T, name, 'k'),
        () => engine.listEntries(T, name, {}),
      ]) {
        await expect(call()).rejects.toMatchObject({ code: 'invalid_argument', field: 'tree_id' });
      }
    }
    for (const key of ['', 'a\0b', 'k'.repeat(1025), 'é'.repeat(513)]) {
      await expect(engine.putEntry(T, 't', key, '1')).rejects.toMatchObject({ field: 'key' });
      await expect(engine.getEntry(T, 't', key)).rejects.toMatchObject({ field: 'key' });
      await expect(engine.deleteEntry(T, 't', key)).rejects.toMatchObject({ field: 'key' });
    }
    await expect(engine.listEntries(T, 't', { keyPrefix: 'a\0' })).rejects.toMatchObject({
      field: 'key_prefix',
    });
    await expect(engine.listTrees('../x', {})).rejects.toMatchObject({ field: 'tenant' });
    await expect(engine.putEntry('t/x', 't', 'k', '1')).rejects.toMatchObject({ field: 'tenant' });
    expect(await storage.db.selectFrom('trees').selectAll().execute()).toEqual([]);
  });

  it('a key of exactly 1024 UTF-8 bytes is accepted', async () => {
    const key = 'é'.repeat(512);
    await engine.putEntry(T, 't', key, '1');
    expect((await engine.getEntry(T, 't', key))?.key).toBe(key);
  });

  it('delete tombstones the entry: get misses it, a second delete reports false', async () => {
    await engine.putEntry(T, 't', 'a', '1');
    expect(await engine.deleteEntry(T, 't', 'a')).toBe(true);
    expect(await engine.getEntry(T, 't', 'a')).toBeUndefined();
    expect(await engine.deleteEntry(T, 't', 'a')).toBe(false);
    expect(await engine.deleteEntry(T, 't', 'never')).toBe(false);
    expect(await engine.deleteEntry(T, 'no-tree', 'a')).toBe(false);
    expect(await allKeys('t')).toEqual([]);
    expect((await engine.putEntry(T, 't', 'a', '2')).sequence).toBe(3);
  });

  it('reading a tree that does not exist gives undefined and an empty page', async () => {
    expect(await engine.getEntry(T, 'ghost', 'k')).toBeUndefined();
    expect(await engine.listEntries(T, 'ghost', {})).toEqual({ entries: [], nextPageToken: '' });
    expect(await engine.listTrees(T, {})).toEqual({ trees: [], nextPageToken: '' });
  });

  it('pages entries with opaque tokens until the token is empty', async () => {
    const keys = ['b', 'a', 'B', 'c', 'é', 'd', 'a-1'];
    for (const key of keys) await engine.putEntry(T, 't', key, '1');
    const seen: string[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const page = await engine.listEntries(T, 't', { pageSize: 3, pageToken });
      seen.push(...page.entries.map((e) => e.key));
      pageToken = page.nextPageToken;
      pages += 1;
    } while (pageToken !== '');
    expect(pages).toBe(3);
    expect(seen).toEqual([...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))));
  });

  it('filters by key prefix literally: % and _ are not wildcards and case matters', async () => {
    for (const key of ['a%b', 'a%c', 'a_b', 'aXb', 'A%b', 'a%', 'ab', 'AB']) {
      await engine.putEntry(T, 't', key, '1');
    }
    expect(await allKeys('t', 'a%')).toEqual(['a%', 'a%b', 'a%c']);
    expect(await allKeys('t', 'a_')).toEqual(['a_b']);
    expect(await allKeys('t', 'A')).toEqual(['A%b', 'AB']);
    const first = await engine.listEntries(T, 't', { keyPrefix: 'a', pageSize: 2 });
    const second = await engine.listEntries(T, 't', {
      keyPrefix: 'a',
      pageSize: 10,
      pageToken: first.nextPageToken,
    });
    expect([...first.entries, ...second.entries].map((e) => e.key)).toEqual([
      'a%',
      'a%b',
      'a%c',
      'aXb',
      'a_b',
      'ab',
    ]);
  });

  it('page size 0 means 50; negative, fractional or over 1000 is InvalidArgument', async () => {
    for (let i = 0; i < 51; i += 1) await engine.putEntry(T, 't', `k${100 + i}`, '1');
    const page = await engine.listEntries(T, 't', { pageSize: 0 });
    expect(page.entries).toHaveLength(50);
    expect(page.nextPageToken).not.toBe('');
    expect((await engine.listEntries(T, 't', { pageSize: 1000 })).entries).toHaveLength(51);
    for (const pageSize of [-1, 1001, 2.5, Number.NaN]) {
      await expect(engine.listEntries(T, 't', { pageSize })).rejects.toMatchObject({
        code: 'invalid_argument',
        field: 'page_size',
      });
      await expect(engine.listTrees(T, { pageSize })).rejects.toMatchObject({ field: 'page_size' });
    }
  });

  it('when the page token is malformed, listing is InvalidArgument on page_token', async () => {
    for (const pageToken of ['!!!', 'YQ==', 'a b', 'AA', '_w', Buffer.from('a\0').toString('base64url')]) {
      await expect(engine.listEntries(T, 't', { pageToken })).rejects.toMatchObject({
        code: 'invalid_argument',
        field: 'page_token',
      });
    }
    const notATreeName = Buffer.from('../x').toString('base64url');
    await expect(engine.listTrees(T, { pageToken: notATreeName })).rejects.toMatchObject({
      field: 'page_token',
    });
  });

  it('lists trees with live counts, clock time and one annotation call per page', async () => {
    const annotations = vi.fn(async (_tenant: string, names: string[]) => {
      return new Map(names.filter((n) => n === 'b').map((n) => [n, { hasPolicy: true, deadLetterCount: 4 }]));
    });
    engine = make({ treeAnnotations: annotations });
    for (const tree of ['c', 'a', 'b']) await engine.putEntry(T, tree, 'k1', '1');
    await engine.putEntry(T, 'b', 'k2', '1');
    now += 5000;
    await engine.deleteEntry(T, 'a', 'k1');
    await engine.putEntry('other', 'zz', 'k', '1');
    const first = await engine.listTrees(T, { pageSize: 2 });
    expect(first.trees).toEqual([
      { treeId: 'a', entryCount: 0, hasPolicy: false, deadLetterCount: 0, updatedAt: now },
      { treeId: 'b', entryCount: 2, hasPolicy: true, deadLetterCount: 4, updatedAt: now - 5000 },
    ]);
    const second = await engine.listTrees(T, { pageSize: 2, pageToken: first.nextPageToken });
    expect(second.trees.map((t) => t.treeId)).toEqual(['c']);
    expect(second.nextPageToken).toBe('');
    expect(annotations.mock.calls).toEqual([
      [T, ['a', 'b']],
      [T, ['c']],
    ]);
  });

  it('keeps tenants apart: the same tree name in two tenants are two trees', async () => {
    await engine.putEntry('acme', 'shared', 'k', '"acme"');
    await engine.putEntry('globex', 'shared', 'k', '"globex"');
    await engine.putEntry('acme', 'only-acme', 'k', '1');
    expect((await engine.getEntry('globex', 'shared', 'k'))?.valueJson).toBe('"globex"');
    expect(await engine.getEntry('globex', 'only-acme', 'k')).toBeUndefined();
    expect(await engine.deleteEntry('globex', 'only-acme', 'k')).toBe(false);
    expect((await engine.listTrees('globex', {})).trees.map((t) => t.treeId)).toEqual(['shared']);
    expect((await engine.getEntry('acme', 'shared', 'k'))?.sequence).toBe(1);
  });
});
