import { Code, createClient } from '@connectrpc/connect';
import { StoreOperationState } from '@store/contract';
import {
  DeadLetterReplayOutcome,
  SchemaInsightOperationKind,
  SchemaInsightService,
  type SchemaInsightOperationStatus,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { describe, expect, it } from 'vitest';
import { callMethod, everyMethod } from './support/call-every-rpc.js';
import { NAMED, as, codeOf, useSchemaHarness } from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

/** Issue 16's least roles, transcribed independently of the server's table. */
const LEAST: Record<string, 'viewer' | 'operator'> = {
  StartPolicyDryRun: 'viewer',
  StartMigrationPreview: 'viewer',
  ValidateValue: 'viewer',
  ListDeadLetters: 'viewer',
  GetSchemaInsightOperationStatus: 'viewer',
  ListSchemaInsightOperations: 'viewer',
  ReplayDeadLetter: 'operator',
  StartDeadLetterReplay: 'operator',
  CancelSchemaInsightOperation: 'operator',
  // Dead-letter discard: counting is a read; discarding resolves letters as a replay does.
  CountPendingDeadLetters: 'viewer',
  DiscardDeadLetters: 'operator',
};
const ROLES = ['viewer', 'operator', 'admin'] as const;

describe.each(DIALECTS)('SchemaInsightService on %s', (dialect) => {
  const h = useSchemaHarness(dialect);
  const client = () => createClient(SchemaInsightService, h.t.grpcWeb);

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

  it.each(everyMethod([SchemaInsightService]).map(([s, m]) => [m.name, s, m] as const))(
    '%s follows the least-role table and refuses anonymous callers',
    async (name, service, method) => {
      const least = LEAST[name];
      expect(least, `${name} has a least role`).toBeDefined();
      expect(await callMethod(h.t.grpc, service, method, {})).toBe(Code.PermissionDenied);
      for (const role of ROLES) {
        const headers = { authorization: `Bearer ${h.tokens[role]}` };
        const outcome = await callMethod(h.t.grpc, service, method, headers);
        if (ROLES.indexOf(role) >= ROLES.indexOf(least!)) {
          expect([Code.PermissionDenied, Code.Unauthenticated], role).not.toContain(outcome);
        } else {
          expect(outcome, `${role} lacks ${least}`).toBe(Code.PermissionDenied);
        }
      }
    },
  );

  it('a viewer dry-runs a draft; the report matches what ENFORCE then refuses', async () => {
    for (const [key, value] of [
      ['a', { name: 'Ada' }],
      ['b', { name: 7 }],
      ['c', {}],
      ['d', { name: 'Di' }],
    ] as const) {
      await h.put('dry', key, value);
    }
    const handle = await client().startPolicyDryRun(
      { treeId: 'dry', jsonSchema: NAMED },
      as(h.tokens.viewer),
    );
    expect(handle.kind).toBe(SchemaInsightOperationKind.POLICY_DRY_RUN);
    const status = await settle(handle.operationId);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    expect(status.result.case).toBe('dryRun');
    const report = status.result.value as Extract<
      SchemaInsightOperationStatus['result'],
      { case: 'dryRun' }
    >['value'];
    expect(report).toMatchObject({ scanned: 4n, failing: 2n });
    expect(report.groups.map((g) => [g.keyword, g.instancePath, g.entryCount])).toEqual([
      ['required', '', 1n],
      ['type', '/name', 1n],
    ]);
    expect(report.samples.map((s) => s.key)).toEqual(['b', 'c']);

    await h.schema.setPolicy('dry', { jsonSchema: NAMED, mode: 1, version: 1 }, h.admin);
    let refused = 0;
    for (const [key, value] of [
      ['a', { name: 'Ada' }],
      ['b', { name: 7 }],
      ['c', {}],
      ['d', { name: 'Di' }],
    ] as const) {
      if ((await h.put('dry', key, value)).deadLettered) refused += 1;
    }
    expect(BigInt(refused)).toBe(report.failing);

    // The operation is the viewer's tenant's only: another tenant sees nothing.
    const other = await client().getSchemaInsightOperationStatus(
      { operationId: handle.operationId },
      as(h.tokens.other),
    );
    expect(other.found).toBe(false);
    // Nor does the schema service list it among its kinds.
    const listed = await h.schema.listSchemaOperations({}, h.admin);
    expect(listed.operations.map((o) => o.operationId)).not.toContain(handle.operationId);
  });

  it('a bad draft is InvalidArgument; a viewer may check values but not replay them', async () => {
    expect(
      await codeOf(
        client().startPolicyDryRun({ treeId: 'dry', jsonSchema: '{' }, as(h.tokens.viewer)),
      ),
    ).toBe(Code.InvalidArgument);
    await h.schema.setPolicy('val', { jsonSchema: NAMED, mode: 1, version: 1 }, h.admin);
    const check = await client().validateValue(
      { treeId: 'val', valueJson: '{"name": 1}' },
      as(h.tokens.viewer),
    );
    expect(check).toMatchObject({ hasPolicy: true, accepted: false });
    expect(check.violations.map((v) => [v.instancePath, v.keyword])).toEqual([['/name', 'type']]);
    await h.put('val', 'k', { name: 1 });
    const { deadLetters } = await client().listDeadLetters({ treeId: 'val' }, as(h.tokens.viewer));
    expect(deadLetters).toHaveLength(1);
    const id = deadLetters[0]!.deadLetterId;
    expect(
      await codeOf(
        client().replayDeadLetter(
          { treeId: 'val', deadLetterId: id, valueJson: '{"name":"ok"}' },
          as(h.tokens.viewer),
        ),
      ),
    ).toBe(Code.PermissionDenied);
    expect(
      await codeOf(
        client().replayDeadLetter(
          { treeId: 'val', deadLetterId: id, valueJson: '{"name":"ok"}' },
          { headers: { ...as(h.tokens.other).headers } },
        ),
      ),
    ).toBe(Code.NotFound);
    const replayed = await client().replayDeadLetter(
      { treeId: 'val', deadLetterId: id, valueJson: '{"name":"ok"}' },
      as(h.tokens.operator),
    );
    expect(replayed.deadLetter).toMatchObject({
      replayOutcome: DeadLetterReplayOutcome.WRITTEN,
      replayedValueJson: '{"name":"ok"}',
    });
    expect(replayed.deadLetter?.replayedBy).toBeTruthy();
    expect((await h.get('val', 'k'))?.valueJson).toBe('{"name":"ok"}');
  });
});
