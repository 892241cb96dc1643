import { Code, createClient } from '@connectrpc/connect';
import {
  StoreOperationState,
  StoreSchemaDeadLetterReason,
  StoreSchemaMode,
  TreeDataService,
} from '@store/contract';
import {
  SchemaInsightOperationKind,
  SchemaInsightService,
  type MigrationPreviewReport,
  type SchemaInsightOperationStatus,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { describe, expect, it } from 'vitest';
import { as, codeOf, useSchemaHarness } from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

const STEPS = [
  {
    fromVersion: 1,
    toVersion: 2,
    transform: { ops: [{ op: 'add', path: '/active', valueJson: 'true' }] },
  },
  // Fails for a value without /age: that entry would be a MIGRATION_FAILED dead letter.
  {
    fromVersion: 2,
    toVersion: 3,
    transform: { ops: [{ op: 'move', from: '/age', path: '/years' }] },
  },
];
// Every value written at version 1 passes (none has /years); a migrated value with a string age
// fails it.
const YEARS_ARE_NUMBERS = JSON.stringify({
  type: 'object',
  properties: { years: { type: 'integer' } },
});

describe.each(DIALECTS)('migration preview on %s', (dialect) => {
  const h = useSchemaHarness(dialect);
  const client = () => createClient(SchemaInsightService, h.t.grpcWeb);
  const data = () => createClient(TreeDataService, h.t.grpcWeb);

  async function settle(operationId: string): Promise<SchemaInsightOperationStatus> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { status } = await client().getSchemaInsightOperationStatus(
        { operationId },
        as(h.tokens.viewer),
      );
      if (status && status.finishedAt) return status;
      if (Date.now() > deadline) throw new Error(`operation ${operationId} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  function previewOf(status: SchemaInsightOperationStatus): MigrationPreviewReport {
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    if (status.result.case !== 'migrationPreview') throw new Error('not a migration preview');
    return status.result.value;
  }

  /** Every entry of the tree with its value, sequence and version. */
  async function snapshot(treeId: string) {
    const { entries } = await data().listEntries({ treeId, pageSize: 1000 }, h.admin);
    return entries.map((e) => [e.key, e.valueJson, e.sequence, e.schemaVersion]);
  }

  /** a, b, d migrate (d's result fails the policy), c's second step fails, e is already at 3. */
  async function seed(treeId: string) {
    // Entry e is written while the tree is at version 3, then the config goes back to 1.
    await h.schema.setVersionConfig(treeId, { currentVersion: 3, targetVersion: 3 }, h.admin);
    await h.put(treeId, 'e', { name: 'Eve', years: 40 });
    await h.schema.setVersionConfig(treeId, { currentVersion: 1, targetVersion: 1 }, h.admin);
    await h.put(treeId, 'a', { name: 'Ada', age: 36 });
    await h.put(treeId, 'b', { name: 'Bo', age: 4 });
    await h.put(treeId, 'c', { name: 'Cy' });
    await h.put(treeId, 'd', { name: 'Di', age: 'old' });
    await h.schema.setVersionConfig(
      treeId,
      { currentVersion: 1, targetVersion: 1, migrations: STEPS },
      h.admin,
    );
    await h.schema.setPolicy(
      treeId,
      { jsonSchema: YEARS_ARE_NUMBERS, mode: StoreSchemaMode.ENFORCE, version: 1 },
      h.admin,
    );
  }

  it('a viewer previews a two-step advance-and-migrate: counts, samples, failures, refusals; nothing is written', async () => {
    await seed('prev');
    const before = await snapshot('prev');
    const configBefore = await h.schema.getVersionConfig('prev', h.admin);

    const handle = await client().startMigrationPreview(
      { treeId: 'prev', newTargetVersion: 3 },
      as(h.tokens.viewer),
    );
    expect(handle.kind).toBe(SchemaInsightOperationKind.MIGRATION_PREVIEW);
    const status = await settle(handle.operationId);
    expect(status.targetId).toBe('prev');
    expect(status.progress).toMatchObject({ done: 5n, total: 5n, unit: 'entries' });
    const report = previewOf(status);
    expect(report).toMatchObject({
      treeId: 'prev',
      fromVersion: 1,
      toVersion: 3,
      scanned: 5n,
      wouldChange: 3n,
      unchanged: 1n,
      wouldDeadLetter: 1n,
      policyRefused: 1n,
      treeChanged: false,
    });
    expect(report.treeSequence).toBeGreaterThan(0n);
    expect(report.policy?.version).toBe(1);
    const steps = report.steps.map((s) => [
      s.fromVersion,
      s.toVersion,
      s.entered,
      s.changed,
      s.failed,
    ]);
    expect(steps).toEqual([
      [1, 2, 4n, 4n, 0n],
      [2, 3, 4n, 3n, 1n],
    ]);
    expect(report.steps[0]!.samples.map((s) => s.key)).toEqual(['a', 'b', 'c', 'd']);
    expect(report.steps[1]!.samples[0]).toMatchObject({
      key: 'a',
      beforeJson: '{"active":true,"age":36,"name":"Ada"}',
      afterJson: '{"active":true,"name":"Ada","years":36}',
    });
    expect(report.failures).toHaveLength(1);
    expect(report.failures[0]).toMatchObject({
      key: 'c',
      reason: StoreSchemaDeadLetterReason.MIGRATION_FAILED,
      fromVersion: 2,
      toVersion: 3,
    });
    expect(report.failures[0]!.message).toContain('2→3');
    expect(report.policySamples.map((s) => s.key)).toEqual(['d']);
    expect(report.policySamples[0]!.reasons.join()).toContain('/years');

    // The preview wrote nothing: same entries, values, sequences, versions and config.
    expect(await snapshot('prev')).toEqual(before);
    expect(await h.schema.getVersionConfig('prev', h.admin)).toEqual(configBefore);
    expect(await h.schema.countDeadLetters('prev', h.admin)).toBe(0);

    // Listed with the schema-insight kinds, and not by the schema service.
    const listed = await client().listSchemaInsightOperations(
      { kinds: [SchemaInsightOperationKind.MIGRATION_PREVIEW], targetId: 'prev' },
      as(h.tokens.viewer),
    );
    expect(listed.operations.map((o) => o.operationId)).toEqual([handle.operationId]);
    const schemaOps = await h.schema.listSchemaOperations({}, h.admin);
    expect(schemaOps.operations.map((o) => o.operationId)).not.toContain(handle.operationId);

    // The run does what the preview said.
    const run = await h.schema.startAdvanceAndMigrate('prev', 3, undefined, h.admin);
    expect((await h.settle(run.operationId)).result.value).toMatchObject({
      scanned: 5n,
      transformed: 3n,
      alreadyCompliant: 1n,
      deadLettered: 1n,
    });
    // ...and the tree is no longer the one the preview read.
    expect(previewOf(await settle(handle.operationId)).treeChanged).toBe(true);
  });

  it('a write after the preview marks it stale; StartMigration semantics preview the config target', async () => {
    await seed('stale');
    await h.schema.setVersionConfig(
      'stale',
      { currentVersion: 1, targetVersion: 2, migrations: STEPS },
      h.admin,
    );
    const handle = await client().startMigrationPreview({ treeId: 'stale' }, as(h.tokens.viewer));
    const report = previewOf(await settle(handle.operationId));
    expect(report).toMatchObject({ toVersion: 2, wouldChange: 4n, wouldDeadLetter: 0n });
    expect(report.steps.map((s) => [s.fromVersion, s.toVersion])).toEqual([[1, 2]]);
    expect(report.treeChanged).toBe(false);
    await h.put('stale', 'f', { name: 'Fay', age: 1 });
    expect(previewOf(await settle(handle.operationId)).treeChanged).toBe(true);
  });

  it('refuses what StartMigration and StartAdvanceAndMigrate refuse, before any work', async () => {
    await h.schema.setVersionConfig(
      'gap',
      { currentVersion: 2, targetVersion: 2, migrations: [STEPS[1]!] },
      h.admin,
    );
    const start = (request: { treeId: string; newTargetVersion?: number; sampleLimit?: number }) =>
      codeOf(client().startMigrationPreview(request, as(h.tokens.viewer)));
    expect(await start({ treeId: 'gap', newTargetVersion: 4 })).toBe(Code.FailedPrecondition);
    expect(await start({ treeId: 'gap', newTargetVersion: 1 })).toBe(Code.FailedPrecondition);
    expect(await start({ treeId: 'no-config' })).toBe(Code.FailedPrecondition);
    expect(await start({ treeId: 'gap', sampleLimit: 101 })).toBe(Code.InvalidArgument);
    expect(await start({ treeId: '' })).toBe(Code.InvalidArgument);
  });
});
