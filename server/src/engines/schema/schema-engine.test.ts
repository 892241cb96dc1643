import { beforeEach, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../../test/support/test-storage.js';
import { storagePerTest } from '../../../test/support/storage-per-test.js';
import type { Storage } from '../../storage/database.js';
import { TreeDataEngine } from '../data/tree-data-engine.js';
import { StoreError } from '../errors.js';
import { SchemaEngine } from './schema-engine.js';

const T = 'acme';
const PERSON = JSON.stringify({
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' } },
});

async function caught(run: () => Promise<unknown>): Promise<StoreError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

describe.each(DIALECTS)('SchemaEngine on %s', (dialect) => {
  let storage: Storage;
  const freshStorage = storagePerTest(dialect);
  let engine: SchemaEngine;
  let data: TreeDataEngine;
  beforeEach(async () => {
    storage = await freshStorage();
    engine = new SchemaEngine({ storage, pageSize: 2 });
    data = new TreeDataEngine({
      storage,
      writeGuard: engine.writeGuard,
      treeAnnotations: engine.treeAnnotations,
    });
  });

  it('stores, reads and clears a policy; an unset mode is ENFORCE', async () => {
    expect(await engine.getPolicy(T, 'people')).toBeUndefined();
    await engine.setPolicy(T, 'people', { jsonSchema: PERSON, version: 3 }, 'alice');
    expect(await engine.getPolicy(T, 'people')).toMatchObject({
      jsonSchema: PERSON,
      mode: 'ENFORCE',
      version: 3,
      updatedBy: 'alice',
    });
    expect(await engine.clearPolicy(T, 'people')).toBe(true);
    expect(await engine.clearPolicy(T, 'people')).toBe(false);
    expect(await engine.getPolicy(T, 'people')).toBeUndefined();
  });

  it('refuses a schema that does not compile with InvalidArgument naming the field', async () => {
    const error = await caught(() =>
      engine.setPolicy(T, 'people', { jsonSchema: '{"type":"nope"}', version: 1 }, 'a'),
    );
    expect(error.code).toBe('invalid_argument');
    expect(error.field).toBe('policy.json_schema');
    expect((await caught(() => engine.getPolicy(T, '../x'))).field).toBe('tree_id');
  });

  it('under ENFORCE a failing write is dead-lettered and not applied; a passing one is', async () => {
    await engine.setPolicy(T, 'people', { jsonSchema: PERSON, version: 1 }, 'a');
    const refused = await data.putEntry(T, 'people', 'bob', '{"age":3}');
    expect(refused).toEqual({
      sequence: 0,
      deadLettered: true,
      deadLetterReason: 'SCHEMA_VIOLATION',
    });
    expect(await data.getEntry(T, 'people', 'bob')).toBeUndefined();
    expect((await data.putEntry(T, 'people', 'ann', '{"name":"Ann"}')).deadLettered).toBe(false);
    const letters = [];
    for await (const letter of engine.streamDeadLetters(T, 'people')) letters.push(letter);
    expect(letters).toEqual([
      expect.objectContaining({
        key: 'bob',
        valueJson: '{"age":3}',
        reason: 'SCHEMA_VIOLATION',
        errors: ["(root): must have required property 'name'"],
        schemaVersion: 0,
        sourceOperationId: null,
      }),
    ]);
  });

  it('under AUDIT a failing write is applied', async () => {
    await engine.setPolicy(T, 'people', { jsonSchema: PERSON, mode: 'AUDIT', version: 1 }, 'a');
    expect((await data.putEntry(T, 'people', 'bob', '{"age":3}')).deadLettered).toBe(false);
    expect(await data.getEntry(T, 'people', 'bob')).toMatchObject({ valueJson: '{"age":3}' });
    expect(await engine.countDeadLetters(T, 'people')).toBe(0);
  });

  it('stamps new writes with the current schema version of the tree', async () => {
    await data.putEntry(T, 'v', 'before', '1');
    await engine.setVersionConfig(T, 'v', { currentVersion: 4, targetVersion: 4, migrations: [] });
    await data.putEntry(T, 'v', 'after', '1');
    expect((await data.getEntry(T, 'v', 'before'))?.schemaVersion).toBe(0);
    expect((await data.getEntry(T, 'v', 'after'))?.schemaVersion).toBe(4);
  });

  it('streams dead letters oldest first across pages and counts them', async () => {
    await engine.setPolicy(T, 'p', { jsonSchema: '{"type":"string"}', version: 1 }, 'a');
    for (let i = 0; i < 5; i += 1) await data.putEntry(T, 'p', `k${4 - i}`, String(i));
    expect(await engine.countDeadLetters(T, 'p')).toBe(5);
    const keys: string[] = [];
    for await (const letter of engine.streamDeadLetters(T, 'p')) keys.push(letter.key);
    expect(keys).toEqual(['k4', 'k3', 'k2', 'k1', 'k0']);
    expect(await engine.countDeadLetters(T, 'other')).toBe(0);
  });

  it('keeps tenants apart: another tenant sees no policy and no dead letters', async () => {
    await engine.setPolicy(T, 'p', { jsonSchema: '{"type":"string"}', version: 1 }, 'a');
    await data.putEntry(T, 'p', 'k', '1');
    expect(await engine.getPolicy('globex', 'p')).toBeUndefined();
    expect(await engine.countDeadLetters('globex', 'p')).toBe(0);
    expect((await data.putEntry('globex', 'p', 'k', '1')).deadLettered).toBe(false);
  });

  it('sets, advances and clears a version config; a target below current is FailedPrecondition', async () => {
    expect(await engine.getVersionConfig(T, 'v')).toBeUndefined();
    const config = {
      currentVersion: 2,
      targetVersion: 2,
      migrations: [{ fromVersion: 2, toVersion: 3 }],
    };
    await engine.setVersionConfig(T, 'v', config);
    expect(await engine.getVersionConfig(T, 'v')).toEqual(config);
    expect(await engine.advanceTargetVersion(T, 'v', 3)).toEqual({ ...config, targetVersion: 3 });
    expect((await caught(() => engine.advanceTargetVersion(T, 'v', 1))).code).toBe(
      'failed_precondition',
    );
    const bad = await caught(() =>
      engine.setVersionConfig(T, 'v', { currentVersion: 3, targetVersion: 1, migrations: [] }),
    );
    expect(bad.field).toBe('config.target_version');
    expect(await engine.clearVersionConfig(T, 'v')).toBe(true);
    expect(await engine.clearVersionConfig(T, 'v')).toBe(false);
    expect((await caught(() => engine.advanceTargetVersion(T, 'v', 5))).code).toBe(
      'failed_precondition',
    );
  });

  it('annotates listed trees with policy presence and dead-letter counts', async () => {
    await data.putEntry(T, 'a', 'k', '1');
    await data.putEntry(T, 'b', 'k', '"s"');
    await engine.setPolicy(T, 'b', { jsonSchema: '{"type":"string"}', version: 1 }, 'x');
    await data.putEntry(T, 'b', 'bad1', '1');
    await data.putEntry(T, 'b', 'bad2', '2');
    const { trees } = await data.listTrees(T, {});
    expect(trees.map((t) => [t.treeId, t.hasPolicy, t.deadLetterCount])).toEqual([
      ['a', false, 0],
      ['b', true, 2],
    ]);
  });
});
