import { createClient } from '@connectrpc/connect';
import { SchemaControlService, StoreOperationState } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { useSchemaHarness } from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

// Spec 001, Resources: "The version config and the value transform are value types and cannot
// be null", and SchemaRemediationReportResponse.Report is required. These tests read the wire
// itself (a raw client), where an absent message would show.
describe.each(DIALECTS)('schema value types on the wire on %s', (dialect) => {
  const h = useSchemaHarness(dialect);
  const raw = () => createClient(SchemaControlService, h.t.grpcWeb);

  it('GetRemediationStatus of a tree never remediated carries an empty report, not an absent one', async () => {
    const { report } = await raw().getRemediationStatus({ treeId: 'never-remediated' }, h.admin);
    expect(report).toBeDefined();
    expect(report).toMatchObject({
      treeId: 'never-remediated',
      state: StoreOperationState.UNSPECIFIED,
      scanned: 0n,
      transformed: 0n,
    });
    expect(report?.startedAt).toBeUndefined();
  });

  it('GetVersionConfig with nothing stored answers Found false with the default config, never an absent one', async () => {
    const response = await raw().getVersionConfig({ treeId: 'no-config' }, h.admin);
    expect(response.found).toBe(false);
    expect(response.config).toMatchObject({ currentVersion: 0, targetVersion: 0, migrations: [] });
  });

  it('SetVersionConfig without a config stores the default config', async () => {
    await raw().setVersionConfig({ treeId: 'default-config' }, h.admin);
    const response = await raw().getVersionConfig({ treeId: 'default-config' }, h.admin);
    expect(response.found).toBe(true);
    expect(response.config).toMatchObject({ currentVersion: 0, targetVersion: 0, migrations: [] });
  });

  it('a migration step without a transform has the default empty transform: it only bumps the version', async () => {
    await h.put('bump', 'k', { v: 1 });
    await raw().setVersionConfig(
      {
        treeId: 'bump',
        config: {
          currentVersion: 0,
          targetVersion: 1,
          migrations: [{ fromVersion: 0, toVersion: 1 }],
        },
      },
      h.admin,
    );
    const stored = await raw().getVersionConfig({ treeId: 'bump' }, h.admin);
    expect(stored.config?.migrations[0]?.transform).toMatchObject({ ops: [] });
    const handle = await h.schema.startMigration('bump', undefined, h.admin);
    expect((await h.settle(handle.operationId)).state).toBe(StoreOperationState.SUCCEEDED);
    const entry = await h.get('bump', 'k');
    expect([entry?.valueJson, entry?.schemaVersion]).toEqual(['{"v":1}', 1]);
  });

  it('StartRemediation without a transform runs with the empty transform: values are only judged', async () => {
    await h.put('judged', 'good', { name: 'a' });
    await h.put('judged', 'bad', { name: 7 });
    const handle = await raw().startRemediation(
      {
        treeId: 'judged',
        targetPolicy: { jsonSchema: '{"properties":{"name":{"type":"string"}}}' },
      },
      h.admin,
    );
    expect((await h.settle(handle.operationId)).state).toBe(StoreOperationState.SUCCEEDED);
    const report = await h.schema.getRemediationStatus('judged', h.admin);
    expect(report).toMatchObject({ scanned: 2n, alreadyCompliant: 1n, transformed: 0n });
  });
});
