import { Code, createClient } from '@connectrpc/connect';
import {
  StoreSchemaApiOperation as Op,
  StoreSchemaDeadLetterReason,
  StoreSchemaMode,
  TreeDataService,
  type SchemaClient,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NAMED,
  as,
  codeOf,
  startSchemaHarness,
  type SchemaHarness,
} from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

describe.each(DIALECTS)('SchemaControlService on %s', (dialect) => {
  let h: SchemaHarness;
  let schema: SchemaClient;
  let admin: SchemaHarness['admin'];
  let tokens: SchemaHarness['tokens'];
  beforeAll(async () => {
    h = await startSchemaHarness(dialect);
    ({ schema, admin, tokens } = h);
  });
  afterAll(async () => {
    await h?.t.dispose();
  });

  const put = (treeId: string, key: string, value: unknown) => h.put(treeId, key, value);
  const get = (treeId: string, key: string) => h.get(treeId, key);
  const data = () => createClient(TreeDataService, h.t.grpcWeb);

  it('PutEntry under ENFORCE is dead-lettered with its reason; under AUDIT it is applied', async () => {
    await schema.setPolicy('people', { jsonSchema: NAMED, version: 1 }, admin);
    const refused = await put('people', 'bob', { age: 3 });
    expect(refused.deadLettered).toBe(true);
    expect(refused.deadLetterReason).toBe('SCHEMA_VIOLATION');
    expect(await get('people', 'bob')).toBeUndefined();
    expect((await put('people', 'ann', { name: 'Ann' })).deadLettered).toBe(false);

    await schema.setPolicy(
      'audited',
      { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT, version: 1 },
      admin,
    );
    expect((await put('audited', 'bob', { age: 3 })).deadLettered).toBe(false);
    expect(await get('audited', 'bob')).toBeDefined();

    const policy = await schema.getPolicy('people', admin);
    expect(policy?.mode).toBe(StoreSchemaMode.ENFORCE);
    expect(policy?.updatedBy).not.toBe('');
    expect(await schema.getPolicy('nothing-here', admin)).toBeNull();
  });

  it('streams dead letters oldest first, counts them, and ListTrees shows the annotations', async () => {
    await schema.setPolicy('letters', { jsonSchema: '{"type":"string"}', version: 2 }, admin);
    for (const key of ['z', 'm', 'a']) await put('letters', key, 1);
    const letters = [];
    for await (const letter of schema.streamDeadLetters('letters', admin)) letters.push(letter);
    expect(letters.map((l) => l.key)).toEqual(['z', 'm', 'a']);
    expect(letters[0]).toMatchObject({
      valueJson: '1',
      reason: StoreSchemaDeadLetterReason.SCHEMA_VIOLATION,
      errors: ['(root): must be string'],
    });
    expect(await schema.countDeadLetters('letters', admin)).toBe(3);
    await put('letters', 'ok', 'fine');
    const { trees } = await data().listTrees({}, admin);
    expect(trees.find((tree) => tree.treeId === 'letters')).toMatchObject({
      hasPolicy: true,
      deadLetterCount: 3n,
    });
    // Another tenant sees none of it.
    expect(await schema.countDeadLetters('letters', as(tokens.other))).toBe(0);
  });

  it('refuses a JSON Schema that does not compile and a malformed tree id with InvalidArgument', async () => {
    const bad = schema.setPolicy('people', { jsonSchema: '{"type":42}', version: 1 }, admin);
    await expect(bad).rejects.toThrow(/policy\.json_schema/);
    expect(await codeOf(schema.setPolicy('people', { jsonSchema: '{', version: 1 }, admin))).toBe(
      Code.InvalidArgument,
    );
    expect(await codeOf(schema.getPolicy('../x', admin))).toBe(Code.InvalidArgument);
  });

  it('answers absent and FailedPrecondition where the tree state forbids a call', async () => {
    expect(await schema.getRemediationStatus('fresh', admin)).toBeNull();
    expect(await schema.getVersionConfig('fresh', admin)).toBeNull();
    await schema.setVersionConfig('fresh', { currentVersion: 2, targetVersion: 2 }, admin);
    expect(await codeOf(schema.advanceTargetVersion('fresh', 1, admin))).toBe(
      Code.FailedPrecondition,
    );
    // 2→4 has no steps: refused before anything starts.
    expect(await codeOf(schema.startAdvanceAndMigrate('fresh', 4, undefined, admin))).toBe(
      Code.FailedPrecondition,
    );
    expect((await schema.getVersionConfig('fresh', admin))?.targetVersion).toBe(2);
    expect(await codeOf(schema.startComplianceScan('fresh', undefined, admin))).toBe(
      Code.FailedPrecondition,
    );
    expect(await schema.advanceTargetVersion('fresh', 5, admin)).toMatchObject({
      targetVersion: 5,
    });
    expect(await schema.clearVersionConfig('fresh', admin)).toBe(true);
    expect(await schema.clearPolicy('fresh', admin)).toBe(false);
  });

  it('ProbeCapabilities lists exactly the operations the caller role allows', async () => {
    const probe = async (role: string) =>
      (await schema.probeCapabilities('any-tree', as(tokens[role as keyof typeof tokens])))
        .allowedOperations;
    const viewer = await probe('viewer');
    expect(viewer).toContain(Op.GET_POLICY);
    expect(viewer).toContain(Op.PROBE_CAPABILITIES);
    expect(viewer).not.toContain(Op.START_COMPLIANCE_SCAN);
    const operator = await probe('operator');
    expect(operator).toContain(Op.START_COMPLIANCE_SCAN);
    expect(operator).not.toContain(Op.SET_POLICY);
    const all = await probe('admin');
    expect(all).toContain(Op.SET_POLICY);
    expect(all).toContain(Op.START_MIGRATION);
    expect(all).not.toContain(Op.UNKNOWN);
    expect(viewer.length).toBeLessThan(operator.length);
    expect(operator.length).toBeLessThan(all.length);
    expect((await schema.probeCapabilities('any-tree', admin)).treeId).toBe('any-tree');
  });
});
