import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../../storage/database.js';
import { compareAndSetWriteLock } from '../../storage/data/physical-tree-store.js';
import { resolveTree } from '../../storage/data/tree-store.js';
import { SchemaEngine } from '../schema/schema-engine.js';
import {
  MAX_PUT_ENTRIES,
  TreeDataEngine,
  type GroupCommitInfo,
  type WriteGuard,
} from './tree-data-engine.js';

const T = 'acme';
const entries = (n: number, prefix = 'k') =>
  Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, valueJson: `{"i":${i}}` }));

describe.each(DIALECTS)('PutEntries on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  let commits: GroupCommitInfo[];
  beforeEach(async () => {
    storage = await freshStorage();
    commits = [];
  });
  const engineWith = (writeGuard?: WriteGuard) =>
    new TreeDataEngine({
      storage,
      onGroupCommit: (info) => commits.push(info),
      ...(writeGuard && { writeGuard }),
    });

  it('writes 1 000 entries in one commit with one consecutive sequence range', async () => {
    const engine = engineWith();
    await engine.putEntry(T, 'bulk', 'before', '0');
    const results = await engine.putEntries(T, 'bulk', entries(MAX_PUT_ENTRIES));
    expect(results.map((r) => r.sequence)).toEqual(
      Array.from({ length: MAX_PUT_ENTRIES }, (_, i) => i + 2),
    );
    expect(commits.at(-1)).toEqual({ tenant: T, treeName: 'bulk', requests: 1, entries: 1000 });
    expect(await engine.getEntry(T, 'bulk', 'k999')).toMatchObject({
      valueJson: '{"i":999}',
      sequence: 1001,
    });
    expect((await engine.listTrees(T, {})).trees).toMatchObject([{ entryCount: 1001 }]);
  });

  it('gives per-entry results: a dead-lettered entry has sequence 0 and takes no sequence', async () => {
    const engine = engineWith(async ({ value }) =>
      (value as { i: number }).i % 3 === 1
        ? { apply: false, reason: 'SCHEMA_VIOLATION' }
        : { apply: true, schemaVersion: 4 },
    );
    const results = await engine.putEntries(T, 'mixed', entries(6));
    expect(results).toEqual([
      { sequence: 1, deadLettered: false },
      { sequence: 0, deadLettered: true, deadLetterReason: 'SCHEMA_VIOLATION' },
      { sequence: 2, deadLettered: false },
      { sequence: 3, deadLettered: false },
      { sequence: 0, deadLettered: true, deadLetterReason: 'SCHEMA_VIOLATION' },
      { sequence: 4, deadLettered: false },
    ]);
    expect(await engine.getEntry(T, 'mixed', 'k1')).toBeUndefined();
    expect(await engine.getEntry(T, 'mixed', 'k2')).toMatchObject({ schemaVersion: 4 });
  });

  it('stores dead letters through the schema engine as PutEntry does', async () => {
    const schema = new SchemaEngine({ storage });
    const policy = JSON.stringify({ type: 'object', required: ['name'] });
    await schema.setPolicy(T, 'people', { jsonSchema: policy, version: 1 }, 'a');
    const engine = new TreeDataEngine({ storage, batchWriteGuard: schema.batchWriteGuard });
    const results = await engine.putEntries(T, 'people', [
      { key: 'ann', valueJson: '{"name":"Ann"}' },
      { key: 'bob', valueJson: '{"age":1}' },
    ]);
    expect(results.map((r) => r.deadLettered)).toEqual([false, true]);
    const letters = [];
    for await (const letter of schema.streamDeadLetters(T, 'people')) letters.push(letter);
    expect(letters).toMatchObject([
      { key: 'bob', valueJson: '{"age":1}', reason: 'SCHEMA_VIOLATION' },
    ]);
  });

  it('more than 1 000 entries is InvalidArgument on `entries`, and nothing is written', async () => {
    const engine = engineWith();
    await expect(engine.putEntries(T, 'big', entries(MAX_PUT_ENTRIES + 1))).rejects.toMatchObject({
      code: 'invalid_argument',
      field: 'entries',
    });
    expect(await resolveTree(storage, T, 'big')).toBeUndefined();
  });

  it('a bad key or bad JSON refuses the whole call, naming the entry', async () => {
    const engine = engineWith();
    const badJson = [...entries(2), { key: 'x', valueJson: '{"a":' }];
    await expect(engine.putEntries(T, 'b', badJson)).rejects.toMatchObject({
      code: 'invalid_argument',
      field: 'entries[2].value_json',
    });
    const badKey = [entries(1)[0]!, { key: '', valueJson: '1' }];
    await expect(engine.putEntries(T, 'b', badKey)).rejects.toMatchObject({
      code: 'invalid_argument',
      field: 'entries[1].key',
    });
    const nulKey = [{ key: 'a\0b', valueJson: '1' }];
    await expect(engine.putEntries(T, 'b', nulKey)).rejects.toMatchObject({
      field: 'entries[0].key',
    });
    expect(await resolveTree(storage, T, 'b')).toBeUndefined();
  });

  it('an empty call writes nothing; a locked tree refuses the whole call', async () => {
    const engine = engineWith();
    expect(await engine.putEntries(T, 'locked', [])).toEqual([]);
    await engine.putEntry(T, 'locked', 'k', '1');
    await compareAndSetWriteLock(storage, {
      tenant: T,
      treeName: 'locked',
      expected: null,
      next: 'op-restore',
    });
    await expect(engine.putEntries(T, 'locked', entries(3))).rejects.toMatchObject({
      code: 'failed_precondition',
      message: expect.stringContaining('op-restore'),
    });
    expect(await engine.getEntry(T, 'locked', 'k0')).toBeUndefined();
  });

  it('concurrent PutEntries and puts share commits; each call keeps a consecutive range', async () => {
    const engine = engineWith();
    const [a, single, b] = await Promise.all([
      engine.putEntries(T, 'shared', entries(50, 'a')),
      engine.putEntry(T, 'shared', 'one', '1'),
      engine.putEntries(T, 'shared', entries(50, 'b')),
    ]);
    const range = (results: { sequence: number }[]) => results.map((r) => r.sequence);
    expect(range(a)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(single.sequence).toBe(51);
    expect(range(b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 52));
    expect(commits).toEqual([{ tenant: T, treeName: 'shared', requests: 3, entries: 101 }]);
  });
});
