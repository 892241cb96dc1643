import { Code } from '@connectrpc/connect';
import { StoreOperationState, StoreSchemaDeadLetterReason, StoreSchemaMode } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { NAMED, as, codeOf, useSchemaHarness } from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

describe.each(DIALECTS)('schema operations through SchemaControlService on %s', (dialect) => {
  const h = useSchemaHarness(dialect);

  it('migrates 1→2→3 as a tracked operation: good values reach 3, the bad one is a dead letter', async () => {
    await h.schema.setVersionConfig('mig', { currentVersion: 1, targetVersion: 1 }, h.admin);
    await h.put('mig', 'a', { name: 'Ada', legacy: 1 });
    await h.put('mig', 'b', { name: 'Bob', legacy: 1 });
    await h.put('mig', 'c', { name: 'Cy' });
    expect((await h.get('mig', 'a'))?.schemaVersion).toBe(1);
    await h.schema.setVersionConfig(
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
      h.admin,
    );
    const handle = await h.schema.startMigration('mig', 'mig-1', h.admin);
    const status = await h.settle(handle.operationId);
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
    expect(JSON.parse((await h.get('mig', 'a'))?.valueJson ?? '')).toEqual({
      fullName: 'Ada',
      active: true,
    });
    expect((await h.get('mig', 'b'))?.schemaVersion).toBe(3);
    expect(await h.get('mig', 'c')).toBeUndefined();
    const letters = [];
    for await (const letter of h.schema.streamDeadLetters('mig', h.admin)) letters.push(letter);
    expect(letters).toMatchObject([
      {
        key: 'c',
        reason: StoreSchemaDeadLetterReason.MIGRATION_FAILED,
        sourceOperationId: handle.operationId,
      },
    ]);
    expect((await h.schema.getVersionConfig('mig', h.admin))?.currentVersion).toBe(3);
    expect(await h.schema.getRemediationStatus('mig', h.admin)).toMatchObject({
      state: StoreOperationState.SUCCEEDED,
      operationId: handle.operationId,
    });
    // The same tracking id and request is the same operation.
    expect((await h.schema.startMigration('mig', 'mig-1', h.admin)).operationId).toBe(
      handle.operationId,
    );
  });

  it('remediation makes a mixed tree compliant with exact counts, then a scan is clean', async () => {
    await h.schema.setPolicy(
      'mixed',
      { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT, version: 1 },
      h.admin,
    );
    await h.put('mixed', 'ok', { name: 'A' });
    await h.put('mixed', 'fix', { fullName: 'B' });
    await h.put('mixed', 'bad', { other: true });
    const target = { jsonSchema: NAMED, version: 2 };
    const transform = { ops: [{ op: 'move', from: '/fullName', path: '/name' }] };
    const handle = await h.schema.startRemediation('mixed', transform, target, undefined, h.admin);
    const status = await h.settle(handle.operationId);
    expect(status.result.value).toMatchObject({
      state: StoreOperationState.SUCCEEDED,
      scanned: 3n,
      alreadyCompliant: 1n,
      transformed: 1n,
      deadLettered: 1n,
      failed: 0n,
    });
    expect((await h.schema.getPolicy('mixed', h.admin))?.version).toBe(2);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC is under test
    const scan = await h.schema.scanCompliance('mixed', h.admin);
    expect(scan).toMatchObject({ scanned: 2n, compliant: 2n, nonCompliant: 0n, violations: [] });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC is under test
    const again = await h.schema.remediate('mixed', transform, target, h.admin);
    expect(again).toMatchObject({ scanned: 2n, alreadyCompliant: 2n, transformed: 0n });
    expect(
      await codeOf(
        h.schema.startRemediation(
          'mixed',
          { ops: [{ op: 'nope', path: '' }] },
          target,
          undefined,
          h.admin,
        ),
      ),
    ).toBe(Code.InvalidArgument);
  });

  it('tracked compliance scans report counts, are listed, and are invisible to other tenants', async () => {
    await h.schema.setPolicy(
      'scanned',
      { jsonSchema: NAMED, mode: StoreSchemaMode.AUDIT, version: 7 },
      h.admin,
    );
    await h.put('scanned', 'a', { name: 'A' });
    await h.put('scanned', 'b', { name: 1 });
    await h.put('scanned', 'c', {});
    const handle = await h.schema.startComplianceScan('scanned', undefined, h.admin);
    await h.settle(handle.operationId);
    const status = await h.schema.getComplianceScanStatus(handle.operationId, h.admin);
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
    const page = await h.schema.listComplianceScans({}, h.admin);
    expect(page.operations.map((o) => o.operationId)).toContain(handle.operationId);
    const other = as(h.tokens.other);
    expect(await h.schema.getComplianceScanStatus(handle.operationId, other)).toBeNull();
    expect(await h.schema.cancelSchemaOperation(handle.operationId, other)).toBeNull();
    // A finished scan is returned unchanged by cancel.
    const cancelled = await h.schema.cancelComplianceScan(handle.operationId, h.admin);
    expect(cancelled?.state).toBe(StoreOperationState.SUCCEEDED);
  });

  it('advances and migrates, tracked and blocking; a reused tracking id with another request is AlreadyExists', async () => {
    const step = (from: number) => ({
      fromVersion: from,
      toVersion: from + 1,
      transform: { ops: [{ op: 'add', path: `/v${from + 1}`, valueJson: 'true' }] },
    });
    await h.schema.setVersionConfig(
      'adv',
      { currentVersion: 1, targetVersion: 1, migrations: [step(1), step(2)] },
      h.admin,
    );
    await h.put('adv', 'k', {});
    const handle = await h.schema.startAdvanceAndMigrate('adv', 2, 'adv-1', h.admin);
    expect((await h.settle(handle.operationId)).result.value).toMatchObject({
      transformed: 1n,
      toVersion: 2,
    });
    expect(await codeOf(h.schema.startAdvanceAndMigrate('adv', 3, 'adv-1', h.admin))).toBe(
      Code.AlreadyExists,
    );
    expect((await h.schema.getVersionConfig('adv', h.admin))?.targetVersion).toBe(2);
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC is under test
    const report = await h.schema.advanceAndMigrate('adv', 3, h.admin);
    expect(report).toMatchObject({
      state: StoreOperationState.SUCCEEDED,
      fromVersion: 2,
      toVersion: 3,
    });
    expect(report?.operationId).toBeUndefined();
    expect(JSON.parse((await h.get('adv', 'k'))?.valueJson ?? '')).toEqual({ v2: true, v3: true });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC is under test
    expect(await h.schema.migrateToTargetVersion('adv', h.admin)).toMatchObject({
      alreadyCompliant: 1n,
    });
  });

  it('a queued scan is cancelled at once and listed as CANCELLED (runs last: stops the runner)', async () => {
    await h.t.server.runner.stop();
    const handle = await h.schema.startComplianceScan('scanned', 'queued-scan', h.admin);
    const cancelled = await h.schema.cancelComplianceScan(handle.operationId, h.admin);
    expect(cancelled?.state).toBe(StoreOperationState.CANCELLED);
    const page = await h.schema.listComplianceScans(
      { states: [StoreOperationState.CANCELLED] },
      h.admin,
    );
    expect(page.operations.map((o) => o.operationId)).toEqual([handle.operationId]);
    const general = await h.schema.listSchemaOperations({}, h.admin);
    expect(general.operations.length).toBeGreaterThanOrEqual(4);
  });

  it('an operation of another family is absent to the schema RPCs (runner stopped: it stays queued)', async () => {
    const backup = await h.t.server.runner.submit({
      tenant: 'default',
      kind: 'BACKUP',
      request: {},
      createdBy: 'test',
    });
    expect(await h.schema.getSchemaOperationStatus(backup.id, h.admin)).toBeNull();
    expect(await h.schema.cancelSchemaOperation(backup.id, h.admin)).toBeNull();
    const migration = await h.schema.startMigration('mig', undefined, h.admin);
    // The compliance-scan RPCs see scans only.
    expect(await h.schema.getComplianceScanStatus(migration.operationId, h.admin)).toBeNull();
    expect(await h.schema.getSchemaOperationStatus(migration.operationId, h.admin)).not.toBeNull();
  });
});
