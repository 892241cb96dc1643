import { Code, createClient } from '@connectrpc/connect';
import {
  StoreSchemaApiOperation as Op,
  StoreSchemaDeadLetterReason,
  StoreOperationState,
  StoreSchemaMode,
  TreeDataService,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import { NAMED, as, codeOf, useSchemaHarness } from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

describe.each(DIALECTS)('SchemaControlService on %s', (dialect) => {
  const h = useSchemaHarness(dialect);
  const data = () => createClient(TreeDataService, h.t.grpcWeb);

  it('PutEntry under ENFORCE is dead-lettered with its reason; under AUDIT it is applied', async () => {
    await h.schema.setPolicy('people', { jsonSchema: NAMED, version: 1 }, h.admin);
    const refused = await h.put('people', 'bob', { age: 3 });
    expect(refused.deadLettered).toBe(true);
    expect(refused.deadLetterReason).toBe('SCHEMA_VIOLATION');
    expect(await h.get('people', 'bob')).toBeUndefined();
    expect((await h.put('people', 'ann', { name: 'Ann' })).deadLettered).toBe(false);

    await h.schema.setPolicy(
      'audited',
      { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT, version: 1 },
      h.admin,
    );
    expect((await h.put('audited', 'bob', { age: 3 })).deadLettered).toBe(false);
    expect(await h.get('audited', 'bob')).toBeDefined();

    const policy = await h.schema.getPolicy('people', h.admin);
    expect(policy?.mode).toBe(StoreSchemaMode.ENFORCE);
    expect(policy?.updatedBy).not.toBe('');
    expect(await h.schema.getPolicy('nothing-here', h.admin)).toBeNull();
  });

  it('streams dead letters oldest first, counts them, and ListTrees shows the annotations', async () => {
    await h.schema.setPolicy('letters', { jsonSchema: '{"type":"string"}', version: 2 }, h.admin);
    for (const key of ['z', 'm', 'a']) await h.put('letters', key, 1);
    const letters = [];
    for await (const letter of h.schema.streamDeadLetters('letters', h.admin)) letters.push(letter);
    expect(letters.map((l) => l.key)).toEqual(['z', 'm', 'a']);
    expect(letters[0]).toMatchObject({
      valueJson: '1',
      reason: StoreSchemaDeadLetterReason.SCHEMA_VIOLATION,
      errors: ['(root): must be string'],
    });
    expect(await h.schema.countDeadLetters('letters', h.admin)).toBe(3);
    await h.put('letters', 'ok', 'fine');
    const { trees } = await data().listTrees({}, h.admin);
    expect(trees.find((tree) => tree.treeId === 'letters')).toMatchObject({
      hasPolicy: true,
      deadLetterCount: 3n,
    });
    // Another tenant sees none of it.
    expect(await h.schema.countDeadLetters('letters', as(h.tokens.other))).toBe(0);
  });

  it('refuses a JSON Schema that does not compile and a malformed tree id with InvalidArgument', async () => {
    const bad = h.schema.setPolicy('people', { jsonSchema: '{"type":42}', version: 1 }, h.admin);
    await expect(bad).rejects.toThrow(/policy\.json_schema/);
    expect(
      await codeOf(h.schema.setPolicy('people', { jsonSchema: '{', version: 1 }, h.admin)),
    ).toBe(Code.InvalidArgument);
    expect(await codeOf(h.schema.getPolicy('../x', h.admin))).toBe(Code.InvalidArgument);
  });

  it('answers absent and FailedPrecondition where the tree state forbids a call', async () => {
    // Never remediated: the empty report (spec 001: the report is required).
    expect(await h.schema.getRemediationStatus('fresh', h.admin)).toMatchObject({
      treeId: 'fresh',
      state: StoreOperationState.UNSPECIFIED,
    });
    expect(await h.schema.getVersionConfig('fresh', h.admin)).toBeNull();
    await h.schema.setVersionConfig('fresh', { currentVersion: 2, targetVersion: 2 }, h.admin);
    expect(await codeOf(h.schema.advanceTargetVersion('fresh', 1, h.admin))).toBe(
      Code.FailedPrecondition,
    );
    // 2→4 has no steps: refused before anything starts.
    expect(await codeOf(h.schema.startAdvanceAndMigrate('fresh', 4, undefined, h.admin))).toBe(
      Code.FailedPrecondition,
    );
    expect((await h.schema.getVersionConfig('fresh', h.admin))?.targetVersion).toBe(2);
    expect(await codeOf(h.schema.startComplianceScan('fresh', undefined, h.admin))).toBe(
      Code.FailedPrecondition,
    );
    expect(await h.schema.advanceTargetVersion('fresh', 5, h.admin)).toMatchObject({
      targetVersion: 5,
    });
    expect(await h.schema.clearVersionConfig('fresh', h.admin)).toBe(true);
    expect(await h.schema.clearPolicy('fresh', h.admin)).toBe(false);
  });

  it('ProbeCapabilities lists exactly the operations the caller role allows', async () => {
    const probe = async (role: string) =>
      (await h.schema.probeCapabilities('any-tree', as(h.tokens[role as keyof typeof h.tokens])))
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
    expect((await h.schema.probeCapabilities('any-tree', h.admin)).treeId).toBe('any-tree');
  });
});
