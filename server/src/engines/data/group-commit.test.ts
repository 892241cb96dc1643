import { setImmediate as nextTurn } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import { openStorage, type Storage } from '../../storage/database.js';
import { resolveTree } from '../../storage/data/tree-store.js';
import { SchemaEngine } from '../schema/schema-engine.js';
import { TreeDataEngine, type GroupCommitInfo, type WriteGuard } from './tree-data-engine.js';

const T = 'acme';

describe.each(DIALECTS)('group commit on %s', (dialect) => {
  let storage: Storage & { location: Parameters<typeof openStorage>[0] };
  const freshStorage = storagePerTest(dialect);
  let commits: GroupCommitInfo[];
  const engineWith = (options: { writeGuard?: WriteGuard } = {}) =>
    new TreeDataEngine({ storage, onGroupCommit: (info) => commits.push(info), ...options });
  beforeEach(async () => {
    storage = await freshStorage();
    commits = [];
  });

  it('16 puts to one tree in one turn share ONE commit, with sequences in call order', async () => {
    const engine = engineWith();
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => engine.putEntry(T, 'hot', `k${i}`, `${i}`)),
    );
    expect(results.map((r) => r.sequence)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(commits).toEqual([{ tenant: T, treeName: 'hot', requests: 16, entries: 16 }]);
    expect((await resolveTree(storage, T, 'hot'))?.lastSequence).toBe(16);
    expect(await engine.getEntry(T, 'hot', 'k15')).toMatchObject({ valueJson: '15', sequence: 16 });
  });

  it('puts arriving while a commit runs wait for the next one and keep their arrival order', async () => {
    const engine = engineWith();
    const first = Array.from({ length: 8 }, (_, i) => engine.putEntry(T, 'hot', `a${i}`, '1'));
    await nextTurn(); // the first group has been taken and is committing
    const second = Array.from({ length: 8 }, (_, i) => engine.putEntry(T, 'hot', `b${i}`, '2'));
    const sequences = (await Promise.all([...first, ...second])).map((r) => r.sequence);
    expect(sequences).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(commits.map((c) => c.entries)).toEqual([8, 8]);
  });

  it('a key written twice in one group keeps the later write', async () => {
    const engine = engineWith();
    const [a, b] = await Promise.all([
      engine.putEntry(T, 'hot', 'same', '"first"'),
      engine.putEntry(T, 'hot', 'same', '"second"'),
    ]);
    expect([a?.sequence, b?.sequence]).toEqual([1, 2]);
    expect(await engine.getEntry(T, 'hot', 'same')).toMatchObject({
      valueJson: '"second"',
      sequence: 2,
    });
  });

  it('groups are per tree: puts to two trees commit separately, each from sequence 1', async () => {
    const engine = engineWith();
    const results = await Promise.all([
      engine.putEntry(T, 'left', 'k', '1'),
      engine.putEntry(T, 'right', 'k', '1'),
      engine.putEntry(T, 'left', 'k2', '1'),
    ]);
    expect(results.map((r) => r.sequence)).toEqual([1, 1, 2]);
    expect(commits.map((c) => `${c.treeName}:${c.entries}`).sort()).toEqual(['left:2', 'right:1']);
  });

  it('a failing neighbour fails alone: bad JSON, a guard that throws, a dead letter', async () => {
    const writeGuard: WriteGuard = async ({ key }) => {
      if (key === 'throws') throw new Error('guard broke on this entry');
      if (key === 'refused') return { apply: false, reason: 'SCHEMA_VIOLATION' };
      return { apply: true, schemaVersion: 0 };
    };
    const engine = engineWith({ writeGuard });
    const outcomes = await Promise.allSettled([
      engine.putEntry(T, 'hot', 'good1', '1'),
      engine.putEntry(T, 'hot', 'badjson', '{nope'),
      engine.putEntry(T, 'hot', 'throws', '1'),
      engine.putEntry(T, 'hot', 'refused', '1'),
      engine.putEntry(T, 'hot', 'good2', '2'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect(outcomes[1]).toMatchObject({ reason: { code: 'invalid_argument' } });
    expect(outcomes[2]).toMatchObject({ reason: { message: 'guard broke on this entry' } });
    expect(outcomes[3]).toMatchObject({ value: { sequence: 0, deadLettered: true } });
    expect(outcomes[0]).toMatchObject({ value: { sequence: 1, deadLettered: false } });
    expect(outcomes[4]).toMatchObject({ value: { sequence: 2, deadLettered: false } });
    expect(commits).toEqual([{ tenant: T, treeName: 'hot', requests: 2, entries: 2 }]);
  });

  it('when the shared transaction fails, each request is retried alone and only the culprit fails', async () => {
    // A schema version the database refuses (NaN) fails the whole transaction, not the guard.
    const writeGuard: WriteGuard = async ({ key }) => ({
      apply: true,
      schemaVersion: key === 'poison' ? Number.NaN : 0,
    });
    const engine = engineWith({ writeGuard });
    const outcomes = await Promise.allSettled(
      ['a', 'poison', 'b'].map((key) => engine.putEntry(T, 'hot', key, '1')),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await engine.getEntry(T, 'hot', 'poison')).toBeUndefined();
    expect(await engine.getEntry(T, 'hot', 'a')).toBeDefined();
    expect(await engine.getEntry(T, 'hot', 'b')).toBeDefined();
    expect(commits.map((c) => c.entries)).toEqual([1, 1]);
  });

  it('two engines on separate connections writing one tree still get unique sequences in commit order', async () => {
    const second = await openStorage(storage.location);
    try {
      const engines = [engineWith(), new TreeDataEngine({ storage: second })];
      const results = await Promise.all(
        engines.flatMap((engine, e) =>
          Array.from({ length: 5 }, async (_, round) => {
            const mine = [];
            for (let i = 0; i < 6; i += 1) {
              const key = `shared-${i % 3}`;
              const value = JSON.stringify({ e, i, round });
              mine.push({ key, value, ...(await engine.putEntry(T, 'hot', key, value)) });
            }
            return mine;
          }),
        ),
      );
      const all = results.flat();
      expect(all.map((r) => r.sequence).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
      const latest = new Map<string, { value: string; sequence: number }>();
      for (const r of all) if ((latest.get(r.key)?.sequence ?? 0) < r.sequence) latest.set(r.key, r);
      for (const [key, expected] of latest) {
        expect(await engines[0]?.getEntry(T, 'hot', key)).toMatchObject({
          valueJson: expected.value,
          sequence: expected.sequence,
        });
      }
    } finally {
      await second.close();
    }
  });

  it('the schema guard judges a whole group: violations dead-lettered, the rest in one commit', async () => {
    const schema = new SchemaEngine({ storage });
    const policy = JSON.stringify({ type: 'object', required: ['name'] });
    await schema.setPolicy(T, 'people', { jsonSchema: policy, version: 1 }, 'a');
    const engine = new TreeDataEngine({
      storage,
      batchWriteGuard: schema.batchWriteGuard,
      onGroupCommit: (info) => commits.push(info),
    });
    const results = await Promise.all([
      engine.putEntry(T, 'people', 'ann', '{"name":"Ann"}'),
      engine.putEntry(T, 'people', 'bob', '{"age":3}'),
      engine.putEntry(T, 'people', 'cy', '{"name":"Cy"}'),
      engine.putEntry(T, 'people', 'dee', '[]'),
    ]);
    expect(results.map((r) => [r.sequence, r.deadLetterReason])).toEqual([
      [1, undefined],
      [0, 'SCHEMA_VIOLATION'],
      [2, undefined],
      [0, 'SCHEMA_VIOLATION'],
    ]);
    expect(await schema.countDeadLetters(T, 'people')).toBe(2);
    // Dead-lettered puts take no sequence and no part in the tree's commit.
    expect(commits).toEqual([{ tenant: T, treeName: 'people', requests: 2, entries: 2 }]);
  });
});
