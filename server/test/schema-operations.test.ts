import { Code } from '@connectrpc/connect';
import {
  StoreOperationState,
  StoreSchemaDeadLetterReason,
  StoreSchemaMode,
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

describe.each(DIALECTS)('schema operations through SchemaControlService on %s', (dialect) => {
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
  const settle = (operationId: string) => h.settle(operationId);

  it('migrates 1→2→3 as a tracked operation: good values reach 3, the bad one is a dead letter', async () => {
    await schema.setVersionConfig('mig', { currentVersion: 1, targetVersion: 1 }, admin);
    await put('mig', 'a', { name: 'Ada', legacy: 1 });
    await put('mig', 'b', { name: 'Bob', legacy: 1 });
    await put('mig', 'c', { name: 'Cy' });
    expect((await get('mig', 'a'))?.schemaVersion).toBe(1);
    await schema.setVersionConfig(
      'mig',
      {
        currentVersion: 1,
        targetVersion: 3,
        migrations: [
          {
            fromVersion: 1,
            toVersion: 2,
            transform: { ops: [{ op: 'move', from: '/name', path: '/fullName' }] },
          },
          {
            fromVersion: 2,
            toVersion: 3,
            transform: {
              ops: [
                { op: 'remove', path: '/legacy' },
                { op: 'add', path: '/active', valueJson: 'true' },
              ],
            },
          },
        ],
      },
      admin,
    );
    const handle = await schema.startMigration('mig', 'mig-1', admin);
    const status = await settle(handle.operationId);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    expect(status.targetId).toBe('mig');
    expect(status.result.case).toBe('remediationReport');
    expect(status.result.value).toMatchObject({
      scanned: 3n,
      transformed: 2n,
      deadLettered: 1n,
      fromVersion: 1,
      toVersion: 3,
      operationId: handle.operationId,
    });
    expect(JSON.parse((await get('mig', 'a'))?.valueJson ?? '')).toEqual({
      fullName: 'Ada',
      active: true,
    });
    expect((await get('mig', 'b'))?.schemaVersion).toBe(3);
    expect(await get('mig', 'c')).toBeUndefined();
    const letters = [];
    for await (const letter of schema.streamDeadLetters('mig', admin)) letters.push(letter);
    expect(letters).toMatchObject([
      {
        key: 'c',
        reason: StoreSchemaDeadLetterReason.MIGRATION_FAILED,
        sourceOperationId: handle.operationId,
      },
    ]);
    expect((await schema.getVersionConfig('mig', admin))?.currentVersion).toBe(3);
    expect(await schema.getRemediationStatus('mig', admin)).toMatchObject({
      state: StoreOperationState.SUCCEEDED,
      operationId: handle.operationId,
    });
    // The same tracking id and request is the same operation.
    expect((await schema.startMigration('mig', 'mig-1', admin)).operationId).toBe(
      handle.operationId,
    );
  });

  it('remediation makes a mixed tree compliant with exact counts, then a scan is clean', async () => {
    await schema.setPolicy(
      'mixed',
      { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT, version: 1 },
      admin,
    );
    await put('mixed', 'ok', { name: 'A' });
    await put('mixed', 'fix', { fullName: 'B' });
    await put('mixed', 'bad', { other: true });
    const target = { jsonSchema: NAMED, version: 2 };
    const transform = { ops: [{ op: 'move', from: '/fullName', path: '/name' }] };
    const handle = await schema.startRemediation('mixed', transform, target, undefined, admin);
    const status = await settle(handle.operationId);
    expect(status.result.value).toMatchObject({
      state: StoreOperationState.SUCCEEDED,
      scanned: 3n,
      alreadyCompliant: 1n,
      transformed: 1n,
      deadLettered: 1n,
      failed: 0n,
    });
    expect((await schema.getPolicy('mixed', admin))?.version).toBe(2);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC is under test
    const scan = await schema.scanCompliance('mixed', admin);
    expect(scan).toMatchObject({ scanned: 2n, compliant: 2n, nonCompliant: 0n, violations: [] });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC is under test
    const again = await schema.remediate('mixed', transform, target, admin);
    expect(again).toMatchObject({ scanned: 2n, alreadyCompliant: 2n, transformed: 0n });
    expect(
      await codeOf(
        schema.startRemediation(
          'mixed',
          { ops: [{ op: 'nope', path: '' }] },
          target,
          undefined,
          admin,
        ),
      ),
    ).toBe(Code.InvalidArgument);
  });

  it('tracked compliance scans report counts, are listed, and are invisible to other tenants', async () => {
    await schema.setPolicy(
      'scanned',
      { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT, version: 7 },
      admin,
    );
    await put('scanned', 'a', { name: 'A' });
    await put('scanned', 'b', { name: 1 });
    await put('scanned', 'c', {});
    const handle = await schema.startComplianceScan('scanned', undefined, admin);
    await settle(handle.operationId);
    const status = await schema.getComplianceScanStatus(handle.operationId, admin);
    expect(status?.result.case).toBe('complianceReport');
    expect(status?.result.value).toMatchObject({
      treeId: 'scanned',
      policyVersion: 7,
      scanned: 3n,
      compliant: 1n,
      nonCompliant: 2n,
      violations: [
        { key: 'b', path: '/name' },
        { key: 'c', path: '' },
      ],
    });
    const page = await schema.listComplianceScans({}, admin);
    expect(page.operations.map((o) => o.operationId)).toContain(handle.operationId);
    const other = as(tokens.other);
    expect(await schema.getComplianceScanStatus(handle.operationId, other)).toBeNull();
    expect(await schema.cancelSchemaOperation(handle.operationId, other)).toBeNull();
    // A finished scan is returned unchanged by cancel.
    const cancelled = await schema.cancelComplianceScan(handle.operationId, admin);
    expect(cancelled?.state).toBe(StoreOperationState.SUCCEEDED);
  });

  it('advances and migrates, tracked and blocking; a reused tracking id with another request is AlreadyExists', async () => {
    const step = (from: number) => ({
      fromVersion: from,
      toVersion: from + 1,
      transform: { ops: [{ op: 'add', path: `/v${from + 1}`, valueJson: 'true' }] },
    });
    await schema.setVersionConfig(
      'adv',
      { currentVersion: 1, targetVersion: 1, migrations: [step(1), step(2)] },
      admin,
    );
    await put('adv', 'k', {});
    const handle = await schema.startAdvanceAndMigrate('adv', 2, 'adv-1', admin);
    expect((await settle(handle.operationId)).result.value).toMatchObject({
      transformed: 1n,
      toVersion: 2,
    });
    expect(await codeOf(schema.startAdvanceAndMigrate('adv', 3, 'adv-1', admin))).toBe(
      Code.AlreadyExists,
    );
    expect((await schema.getVersionConfig('adv', admin))?.targetVersion).toBe(2);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC is under test
    const report = await schema.advanceAndMigrate('adv', 3, admin);
    expect(report).toMatchObject({
      state: StoreOperationState.SUCCEEDED,
      fromVersion: 2,
      toVersion: 3,
    });
    expect(report?.operationId).toBeUndefined();
    expect(JSON.parse((await get('adv', 'k'))?.valueJson ?? '')).toEqual({ v2: true, v3: true });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC is under test
    expect(await schema.migrateToTargetVersion('adv', admin)).toMatchObject({
      alreadyCompliant: 1n,
    });
  });

  it('a queued scan is cancelled at once and listed as CANCELLED (runs last: stops the runner)', async () => {
    await h.t.server.runner.stop();
    const handle = await schema.startComplianceScan('scanned', 'queued-scan', admin);
    const cancelled = await schema.cancelComplianceScan(handle.operationId, admin);
    expect(cancelled?.state).toBe(StoreOperationState.CANCELLED);
    const page = await schema.listComplianceScans(
      { states: [StoreOperationState.CANCELLED] },
      admin,
    );
    expect(page.operations.map((o) => o.operationId)).toEqual([handle.operationId]);
    const general = await schema.listSchemaOperations({}, admin);
    expect(general.operations.length).toBeGreaterThanOrEqual(4);
  });

  it('an operation of another family is absent to the schema RPCs (runner stopped: it stays queued)', async () => {
    const backup = await h.t.server.runner.submit({
      tenant: 'default',
      kind: 'BACKUP',
      request: {},
      createdBy: 'test',
    });
    expect(await schema.getSchemaOperationStatus(backup.id, admin)).toBeNull();
    expect(await schema.cancelSchemaOperation(backup.id, admin)).toBeNull();
    const migration = await schema.startMigration('mig', undefined, admin);
    // The compliance-scan RPCs see scans only.
    expect(await schema.getComplianceScanStatus(migration.operationId, admin)).toBeNull();
    expect(await schema.getSchemaOperationStatus(migration.operationId, admin)).not.toBeNull();
  });
});
