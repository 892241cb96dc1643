import { Code, ConnectError, createClient } from '@connectrpc/connect';
import {
  IdentityService,
  StoreSchemaMode,
  TreeDataService,
  createSchemaClient,
} from '@store/contract';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { describe, expect, it } from 'vitest';
import {
  SLOW_PER_ITEM,
  branchDraft,
  manyStrings,
  referenceBomb,
  withBystander,
  type BystanderReport,
} from '../support/schema-bombs.js';
import { as, useSchemaHarness } from '../support/schema-harness.js';
import { DIALECTS } from '../support/test-storage.js';

// Generous bounds for a shared two-core CI machine: before the validation budget, the 30-level
// bomb held every tenant for 4 s, the 48-level one forever, and the 12 000-branch draft took the
// process past 3.6 GB until it was killed.
const BYSTANDER_P99_MS = 1_500;
// Under a flood of calls over the budget a worker is terminated every second and its replacement
// starts (about 0.2 s of a core) while the attacker's next value burns another core: on two
// shared cores that is what the other tenant's own validation competes with.
const FLOOD_P99_MS = 2_000;
const RSS_BOUND_BYTES = 2 * 1024 ** 3;
// The default time budget is 1 s per value; a refusal within a few budgets is prompt.
const PROMPT_MS = 10_000;

async function failure(promise: Promise<unknown>): Promise<ConnectError> {
  try {
    await promise;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error('expected the call to fail');
}

describe.each(DIALECTS)('schema bombs against the server on %s', (dialect) => {
  const h = useSchemaHarness(dialect);
  const insight = () => createClient(SchemaInsightService, h.t.grpcWeb);
  const data = () => createClient(TreeDataService, h.t.grpcWeb);

  // Tenant `other` writes and reads its own tree while tenant `default` attacks.
  let round = 0;
  const bystander = async () => {
    const other = as(h.tokens.other);
    const key = `k${round++ % 50}`;
    await data().putEntry({ treeId: 'bystander', key, valueJson: '{"n":1}' }, other);
    await data().getEntry({ treeId: 'bystander', key }, other);
  };

  function expectUnharmed(report: BystanderReport<unknown>, p99Ms = BYSTANDER_P99_MS): void {
    expect(report.calls).toBeGreaterThan(0);
    expect(report.p99Ms).toBeLessThanOrEqual(p99Ms);
    expect(report.maxRssBytes).toBeLessThan(RSS_BOUND_BYTES);
  }

  // The process lives, and the attacking tenant's admin still reads a page of its audit trail.
  async function expectAlive(): Promise<void> {
    const trees = await data().listTrees({}, as(h.tokens.other));
    expect(trees.trees.map((tree) => tree.treeId)).toContain('bystander');
    const audit = await createClient(IdentityService, h.t.grpcWeb).listAuditRecords(
      { pageSize: 10 },
      h.admin,
    );
    expect(audit.records.length).toBeGreaterThan(0);
  }

  it('refuses the 30- and 48-level reference bombs at SetPolicy and at StartPolicyDryRun, naming the limit', async () => {
    const report = await withBystander(bystander, async () => {
      for (const levels of [30, 48]) {
        const bomb = referenceBomb(levels);
        const set = await failure(
          h.schema.setPolicy('bombed', { jsonSchema: bomb, mode: 1, version: 1 }, h.admin),
        );
        expect(set.code).toBe(Code.InvalidArgument);
        expect(set.rawMessage).toMatch(/policy\.json_schema: .*\(the expansion limit\)/);
        const dryRun = await failure(
          insight().startPolicyDryRun({ treeId: 'bombed', jsonSchema: bomb }, as(h.tokens.viewer)),
        );
        expect(dryRun.code).toBe(Code.InvalidArgument);
        expect(dryRun.rawMessage).toMatch(/json_schema: .*\(the expansion limit\)/);
      }
    });
    expectUnharmed(report);
    // Nothing was stored: a put into the tree is judged by no policy and answers at once.
    expect((await h.put('bombed', 'k', 1)).deadLettered).toBe(false);
    await expectAlive();
  });

  it('refuses the 12 000-branch draft at SetPolicy and at StartPolicyDryRun, naming the limit', async () => {
    const draft = branchDraft(12_000);
    expect(Buffer.byteLength(draft)).toBeGreaterThan(200_000);
    await h.put('wide', 'items', manyStrings(1_000));
    const report = await withBystander(bystander, async () => {
      const set = await failure(
        h.schema.setPolicy('wide', { jsonSchema: draft, mode: 1, version: 1 }, h.admin),
      );
      expect(set.code).toBe(Code.InvalidArgument);
      expect(set.rawMessage).toMatch(/12000 allOf\/anyOf\/oneOf branches.*\(the branch limit\)/);
      const dryRun = await failure(
        insight().startPolicyDryRun({ treeId: 'wide', jsonSchema: draft }, as(h.tokens.viewer)),
      );
      expect(dryRun.code).toBe(Code.InvalidArgument);
      expect(dryRun.rawMessage).toContain('(the branch limit)');
    });
    expectUnharmed(report);
    await expectAlive();
  });

  it('cuts a value over the time budget: ENFORCE answers ResourceExhausted promptly and stores nothing; AUDIT stores it and the scan reports it', async () => {
    await h.schema.setPolicy(
      'slow',
      { jsonSchema: SLOW_PER_ITEM, mode: StoreSchemaMode.ENFORCE, version: 1 },
      h.admin,
    );
    await h.schema.setPolicy(
      'slow-audit',
      { jsonSchema: SLOW_PER_ITEM, mode: StoreSchemaMode.AUDIT, version: 1 },
      h.admin,
    );
    const heavy = manyStrings(20_000);
    const report = await withBystander(bystander, async () => {
      const started = Date.now();
      const refused = await failure(h.put('slow', 'heavy', heavy));
      expect(refused.code).toBe(Code.ResourceExhausted);
      expect(refused.rawMessage).toMatch(/over the validation budget: judging one value took/);
      expect(Date.now() - started).toBeLessThan(PROMPT_MS);
      // A light value of the same tree is still judged (and passes).
      expect((await h.put('slow', 'light', ['y'])).deadLettered).toBe(false);

      expect((await h.put('slow-audit', 'heavy', heavy)).deadLettered).toBe(false);
      const scan = await h.schema.startComplianceScan('slow-audit', undefined, h.admin);
      await h.settle(scan.operationId);
      return h.schema.getComplianceScanStatus(scan.operationId, h.admin);
    });
    expectUnharmed(report);
    expect(await h.get('slow', 'heavy')).toBeUndefined();
    expect(await h.schema.countDeadLetters('slow', h.admin)).toBe(0);
    expect(await h.get('slow-audit', 'heavy')).toBeDefined();
    expect(report.result?.result.value).toMatchObject({
      scanned: 1n,
      nonCompliant: 1n,
      violations: [{ key: 'heavy', path: '', message: expect.stringMatching(/validation budget/) }],
    });
    await expectAlive();
  });

  it('judges uniqueItems over 20 000 object items quickly, and still finds a duplicate', async () => {
    await h.schema.setPolicy(
      'unique',
      { jsonSchema: '{"type": "array", "uniqueItems": true}', mode: 1, version: 1 },
      h.admin,
    );
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i }));
    const report = await withBystander(bystander, async () => {
      const started = Date.now();
      expect((await h.put('unique', 'distinct', items)).deadLettered).toBe(false);
      const twice = await h.put('unique', 'twice', [...items, { id: 7 }]);
      expect(twice.deadLetterReason).toBe('SCHEMA_VIOLATION');
      return Date.now() - started;
    });
    expectUnharmed(report);
    // Ajv's pairwise loop blocked 2.7 s per put; generous for a shared machine.
    expect(report.result).toBeLessThan(PROMPT_MS);
    const letters = [];
    for await (const letter of h.schema.streamDeadLetters('unique', h.admin)) letters.push(letter);
    expect(letters.map((letter) => letter.errors)).toEqual([
      ['(root): must NOT have duplicate items (items ## 7 and 20000 are identical)'],
    ]);
    await expectAlive();
  });

  it("a flood of over-budget puts from one tenant leaves another tenant's policed puts answering", async () => {
    await h.schema.setPolicy(
      'flood',
      { jsonSchema: SLOW_PER_ITEM, mode: StoreSchemaMode.ENFORCE, version: 1 },
      h.admin,
    );
    const other = as(h.tokens.other);
    const named = '{"type": "object", "required": ["n"]}';
    await createSchemaClient(h.t.grpcWeb).setPolicy(
      'policed',
      { jsonSchema: named, mode: StoreSchemaMode.ENFORCE, version: 1 },
      other,
    );
    let n = 0;
    const policedPut = async () => {
      const key = `k${n++ % 50}`;
      const put = await data().putEntry({ treeId: 'policed', key, valueJson: '{"n":1}' }, other);
      expect(put.deadLettered).toBe(false);
    };
    await policedPut();
    const report = await withBystander(policedPut, async () => {
      // Four attackers, each putting a new heavy value as soon as the last one is refused.
      const until = Date.now() + 6_000;
      const attacker = async () => {
        let refused = 0;
        while (Date.now() < until) {
          const error = await failure(h.put('flood', `k${refused}`, manyStrings(20_000)));
          expect(error.code).toBe(Code.ResourceExhausted);
          refused += 1;
        }
        return refused;
      };
      return Promise.all([attacker(), attacker(), attacker(), attacker()]);
    });
    expect(report.result.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expectUnharmed(report, FLOOD_P99_MS);
    await expectAlive();
  });
});
