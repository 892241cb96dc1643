import { createClient } from '@connectrpc/connect';
import { StoreOperationState, StoreSchemaMode } from '@store/contract';
import {
  SchemaInsightService,
  type SchemaInsightOperationStatus,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { describe, expect, it } from 'vitest';
import { as, useSchemaHarness } from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

/** A policy whose `contact` must be an e-mail address. */
const EMAIL = JSON.stringify({
  type: 'object',
  required: ['contact'],
  properties: { contact: { type: 'string', format: 'email' } },
});
const FORMAT_ERROR = '/contact: must match format "email"';

// Every path that judges a value compiles the same schema the same way: the write guard (ENFORCE),
// the compliance scan (what AUDIT records), the dry-run, ValidateValue and remediation.
describe.each(DIALECTS)('format is asserted on every path on %s', (dialect) => {
  const h = useSchemaHarness(dialect);
  const insight = () => createClient(SchemaInsightService, h.t.grpcWeb);

  it('ENFORCE dead-letters "not-an-email" with the format named; a real address is written', async () => {
    await h.schema.setPolicy('enforced', { jsonSchema: EMAIL, version: 1 }, h.admin);
    const refused = await h.put('enforced', 'bad', { contact: 'not-an-email' });
    expect(refused).toMatchObject({ deadLettered: true, deadLetterReason: 'SCHEMA_VIOLATION' });
    expect(await h.get('enforced', 'bad')).toBeUndefined();
    expect((await h.put('enforced', 'good', { contact: 'ada@example.com' })).deadLettered).toBe(
      false,
    );
    const letters = [];
    for await (const letter of h.schema.streamDeadLetters('enforced', h.admin)) {
      letters.push(letter);
    }
    expect(letters.map((l) => [l.key, l.errors])).toEqual([['bad', [FORMAT_ERROR]]]);
  });

  it('AUDIT writes "not-an-email" and the compliance scan records it', async () => {
    await h.schema.setPolicy(
      'audited',
      { jsonSchema: EMAIL, mode: StoreSchemaMode.AUDIT, version: 1 },
      h.admin,
    );
    expect((await h.put('audited', 'bad', { contact: 'not-an-email' })).deadLettered).toBe(false);
    await h.put('audited', 'good', { contact: 'ada@example.com' });
    expect(await h.get('audited', 'bad')).toBeDefined();
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking RPC reads simply
    const scan = await h.schema.scanCompliance('audited', h.admin);
    expect(scan).toMatchObject({ scanned: 2n, compliant: 1n, nonCompliant: 1n });
    expect(scan?.violations.map((v) => [v.key, v.path, v.message])).toEqual([
      ['bad', '/contact', 'must match format "email"'],
    ]);
  });

  it('the dry-run counts "not-an-email" under the format keyword before a policy is set', async () => {
    await h.put('draft', 'bad', { contact: 'not-an-email' });
    await h.put('draft', 'good', { contact: 'ada@example.com' });
    const handle = await insight().startPolicyDryRun(
      { treeId: 'draft', jsonSchema: EMAIL },
      as(h.tokens.viewer),
    );
    const status = await settleInsight(handle.operationId);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
    const report = status.result.case === 'dryRun' ? status.result.value : undefined;
    expect(report).toMatchObject({ scanned: 2n, failing: 1n });
    expect(report?.groups.map((g) => [g.keyword, g.instancePath, g.entryCount])).toEqual([
      ['format', '/contact', 1n],
    ]);
    expect(report?.samples.map((s) => s.key)).toEqual(['bad']);
  });

  it('ValidateValue refuses "not-an-email" and accepts an address', async () => {
    await h.schema.setPolicy('checked', { jsonSchema: EMAIL, version: 1 }, h.admin);
    const refused = await insight().validateValue(
      { treeId: 'checked', valueJson: '{"contact":"not-an-email"}' },
      as(h.tokens.viewer),
    );
    expect(refused).toMatchObject({ hasPolicy: true, accepted: false });
    expect(refused.violations.map((v) => [v.instancePath, v.keyword])).toEqual([
      ['/contact', 'format'],
    ]);
    const accepted = await insight().validateValue(
      { treeId: 'checked', valueJson: '{"contact":"ada@example.com"}' },
      as(h.tokens.viewer),
    );
    expect(accepted.accepted).toBe(true);
  });

  it('remediation to an e-mail policy dead-letters the value the format refuses', async () => {
    await h.put('remedied', 'bad', { contact: 'not-an-email' });
    await h.put('remedied', 'good', { contact: 'ada@example.com' });
    const handle = await h.schema.startRemediation(
      'remedied',
      { ops: [] },
      { jsonSchema: EMAIL, version: 1 },
      undefined,
      h.admin,
    );
    const status = await h.settle(handle.operationId);
    expect(status.result.value).toMatchObject({
      state: StoreOperationState.SUCCEEDED,
      scanned: 2n,
      alreadyCompliant: 1n,
      deadLettered: 1n,
    });
    expect(await h.get('remedied', 'bad')).toBeUndefined();
  });

  it('an unknown format stays an annotation: the policy is set and any string is written', async () => {
    const custom = JSON.stringify({ type: 'string', format: 'x-ticket-number' });
    await h.schema.setPolicy('custom', { jsonSchema: custom, version: 1 }, h.admin);
    expect((await h.put('custom', 'k', 'anything')).deadLettered).toBe(false);
  });

  async function settleInsight(operationId: string): Promise<SchemaInsightOperationStatus> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { status } = await insight().getSchemaInsightOperationStatus(
        { operationId },
        as(h.tokens.viewer),
      );
      if (status?.finishedAt) return status;
      if (Date.now() > deadline) throw new Error(`operation ${operationId} did not finish`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
});
