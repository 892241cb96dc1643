import { Code, createClient } from '@connectrpc/connect';
import { IdentityService, TreeDataService } from '@store/contract';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { DeadLetterSelectionSchema } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { describe, expect, it } from 'vitest';
import { NAMED, as, codeOf, useSchemaHarness } from './support/schema-harness.js';
import { DIALECTS } from './support/test-storage.js';

type Selection = MessageInitShape<typeof DeadLetterSelectionSchema>;
const one = (id: bigint): Selection => ({ selection: { case: 'deadLetterId', value: id } });
const ALL: Selection = { selection: { case: 'all', value: true } };
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DIALECTS)('dead-letter discard on %s', (dialect) => {
  const h = useSchemaHarness(dialect);
  const insight = () => createClient(SchemaInsightService, h.t.grpcWeb);
  const data = () => createClient(TreeDataService, h.t.grpcWeb);

  /** An ENFORCE tree with one good entry and a refused write per key, 3 ms apart. */
  async function treeWithLetters(treeId: string, keys: readonly string[]): Promise<bigint[]> {
    await h.schema.setPolicy(treeId, { jsonSchema: NAMED, mode: 1, version: 1 }, h.admin);
    await h.put(treeId, 'good', { name: 'Ada' });
    for (const key of keys) {
      expect((await h.put(treeId, key, { age: key.length })).deadLettered).toBe(true);
      await pause(3);
    }
    return (await pendingRecords(treeId)).map((r) => r.deadLetterId);
  }

  async function pendingRecords(treeId: string, extra: { includeDiscarded?: boolean } = {}) {
    const page = await insight().listDeadLetters(
      { treeId, pageSize: 1000, ...extra },
      as(h.tokens.viewer),
    );
    return page.deadLetters;
  }

  async function countOf(treeId: string, selection?: Selection): Promise<bigint> {
    const answer = await insight().countPendingDeadLetters(
      { treeId, selection },
      as(h.tokens.viewer),
    );
    return answer.count;
  }

  /** What a discard confirms: the count and fingerprint CountPendingDeadLetters answers now. */
  async function confirmed(treeId: string, selection?: Selection) {
    const answer = await insight().countPendingDeadLetters(
      { treeId, selection },
      as(h.tokens.viewer),
    );
    expect(answer.fingerprint).not.toBe('');
    return { expectedCount: answer.count, expectedFingerprint: answer.fingerprint };
  }

  /** Every count of the tree's pending letters the API gives; they must all be the same. */
  async function everyCount(treeId: string) {
    const { trees } = await data().listTrees({ pageSize: 1000 }, h.admin);
    let streamed = 0;
    for await (const letter of h.schema.streamDeadLetters(treeId, h.admin)) {
      expect(letter.key).not.toBe('');
      streamed += 1;
    }
    return {
      listTrees: Number(trees.find((t) => t.treeId === treeId)?.deadLetterCount),
      countDeadLetters: Number(await h.schema.countDeadLetters(treeId, h.admin)),
      streamDeadLetters: streamed,
      replaySection: (await pendingRecords(treeId)).length,
      countPending: Number(await countOf(treeId)),
    };
  }

  async function discardRecords(subject?: string) {
    const identity = createClient(IdentityService, h.t.grpcWeb);
    await h.t.server.audit.flush();
    const { records } = await identity.listAuditRecords(
      { method: 'DiscardDeadLetters', pageSize: 1000, subject },
      h.admin,
    );
    return records;
  }

  it('discards one letter, a filtered set and then all, each audited with tree, selection and count', async () => {
    const ids = await treeWithLetters('disc', ['a1', 'a2', 'b1', 'b2', 'c1', 'c2']);
    const operator = await h.t.server.tokens.issue({ tenant: 'default', roles: ['operator'] });
    const by = as(operator.token);

    expect(await countOf('disc', one(ids[0]!))).toBe(1n);
    const first = await insight().discardDeadLetters(
      {
        treeId: 'disc',
        selection: one(ids[0]!),
        ...(await confirmed('disc', one(ids[0]!))),
        note: 'test data',
      },
      by,
    );
    expect(first.discardedCount).toBe(1n);

    const byPrefix: Selection = { selection: { case: 'filter', value: { keyPrefix: 'b' } } };
    expect(await countOf('disc', byPrefix)).toBe(2n);
    expect(
      (
        await insight().discardDeadLetters(
          { treeId: 'disc', selection: byPrefix, ...(await confirmed('disc', byPrefix)) },
          by,
        )
      ).discardedCount,
    ).toBe(2n);

    // Before the time of c1: only a2 is left of the earlier letters.
    const c1 = (await pendingRecords('disc')).find((r) => r.entry?.key === 'c1')!;
    const before: Selection = {
      selection: { case: 'filter', value: { deadLetteredBefore: c1.entry?.deadLetteredAt } },
    };
    expect(await countOf('disc', before)).toBe(1n);

    expect(await countOf('disc')).toBe(3n);
    const rest = await insight().discardDeadLetters(
      { treeId: 'disc', selection: ALL, ...(await confirmed('disc', ALL)) },
      by,
    );
    expect(rest.discardedCount).toBe(3n);
    expect(await everyCount('disc')).toEqual({
      listTrees: 0,
      countDeadLetters: 0,
      streamDeadLetters: 0,
      replaySection: 0,
      countPending: 0,
    });

    // Discarded letters are kept (who, when, the note), shown only on request.
    const kept = await pendingRecords('disc', { includeDiscarded: true });
    expect(kept).toHaveLength(6);
    const subject = `token:${operator.info.id}`;
    expect(kept.every((r) => r.discardedBy === subject && r.discardedAt !== undefined)).toBe(true);
    expect(kept.find((r) => r.deadLetterId === ids[0])?.discardNote).toBe('test data');

    const records = await discardRecords(subject);
    expect(records.map((r) => [r.targetId, r.outcome, r.detail]).reverse()).toEqual([
      ['disc', 'OK', `discarded 1 dead letter: dead letter ${ids[0]}; note: test data`],
      ['disc', 'OK', 'discarded 2 dead letters: filter (key prefix "b")'],
      ['disc', 'OK', 'discarded 3 dead letters: all pending'],
    ]);
  });

  it('a confirmed count that no longer matches is FailedPrecondition and discards nothing', async () => {
    const ids = await treeWithLetters('stale', ['x1', 'x2']);
    const by = as(h.tokens.operator);
    const shown = await confirmed('stale', ALL);
    expect(shown.expectedCount).toBe(2n);
    // A write refused after the confirm showed 2.
    await h.put('stale', 'x3', {});
    expect(
      await codeOf(insight().discardDeadLetters({ treeId: 'stale', selection: ALL, ...shown }, by)),
    ).toBe(Code.FailedPrecondition);
    expect(await countOf('stale')).toBe(3n);
    expect(await pendingRecords('stale', { includeDiscarded: true })).toHaveLength(3);
    const [refused] = await discardRecords();
    expect(refused).toMatchObject({ targetId: 'stale', outcome: 'FAILED_PRECONDITION' });
    expect(refused!.detail).toContain('now takes 3 pending dead letters');

    // One letter: gone once discarded; a discarded letter is not replayed either.
    const theLetter = await confirmed('stale', one(ids[0]!));
    await insight().discardDeadLetters(
      { treeId: 'stale', selection: one(ids[0]!), ...theLetter },
      by,
    );
    const again = insight().discardDeadLetters(
      { treeId: 'stale', selection: one(ids[0]!), ...theLetter },
      by,
    );
    expect(await codeOf(again)).toBe(Code.FailedPrecondition);
    const replay = insight().replayDeadLetter(
      { treeId: 'stale', deadLetterId: ids[0]!, valueJson: '{"name":"ok"}' },
      by,
    );
    expect(await codeOf(replay)).toBe(Code.FailedPrecondition);
    expect(
      await codeOf(
        insight().discardDeadLetters(
          { treeId: 'stale', selection: one(99_999n), ...theLetter },
          by,
        ),
      ),
    ).toBe(Code.NotFound);
    // A discard must say what it takes; an empty request never means "all".
    const rest = await confirmed('stale', ALL);
    expect(await codeOf(insight().discardDeadLetters({ treeId: 'stale', ...rest }, by))).toBe(
      Code.InvalidArgument,
    );
    // ...and must name the set it confirmed, not only its size.
    expect(
      await codeOf(
        insight().discardDeadLetters(
          { treeId: 'stale', selection: ALL, expectedCount: rest.expectedCount },
          by,
        ),
      ),
    ).toBe(Code.InvalidArgument);
    expect(await countOf('stale')).toBe(2n);
  });

  it('one letter arriving and another resolved after the confirm keep the count but refuse the discard; nothing is discarded', async () => {
    const ids = await treeWithLetters('swap', ['s1', 's2', 's3']);
    const by = as(h.tokens.operator);
    const shown = await confirmed('swap', ALL);
    expect(shown.expectedCount).toBe(3n);

    // After the confirm: s4 arrives, s2 is replayed with a fixed value (resolved). Still 3.
    expect((await h.put('swap', 's4', { age: 4 })).deadLettered).toBe(true);
    await insight().replayDeadLetter(
      { treeId: 'swap', deadLetterId: ids[1]!, valueJson: '{"name":"fixed"}' },
      by,
    );
    expect(await countOf('swap')).toBe(3n);

    const refusal = insight().discardDeadLetters({ treeId: 'swap', selection: ALL, ...shown }, by);
    expect(await codeOf(refusal)).toBe(Code.FailedPrecondition);
    const [refused] = await discardRecords();
    expect(refused).toMatchObject({ targetId: 'swap', outcome: 'FAILED_PRECONDITION' });
    expect(refused!.detail).toContain('other pending dead letters');
    expect((await pendingRecords('swap')).map((r) => r.entry?.key)).toEqual(['s1', 's3', 's4']);
    expect(await pendingRecords('swap', { includeDiscarded: true })).toHaveLength(3);

    // The same within a filter, the resolved letter discarded: s5 arrives, s3 is discarded
    // (the count and the lowest letter stay).
    const byPrefix: Selection = { selection: { case: 'filter', value: { keyPrefix: 's' } } };
    const filtered = await confirmed('swap', byPrefix);
    expect((await h.put('swap', 's5', { age: 5 })).deadLettered).toBe(true);
    await insight().discardDeadLetters(
      { treeId: 'swap', selection: one(ids[2]!), ...(await confirmed('swap', one(ids[2]!))) },
      by,
    );
    expect(await countOf('swap', byPrefix)).toBe(filtered.expectedCount);
    expect(
      await codeOf(
        insight().discardDeadLetters({ treeId: 'swap', selection: byPrefix, ...filtered }, by),
      ),
    ).toBe(Code.FailedPrecondition);
    expect((await pendingRecords('swap')).map((r) => r.entry?.key)).toEqual(['s1', 's4', 's5']);

    // Counted again, the set the admin now sees is discarded.
    const recounted = await confirmed('swap', ALL);
    const done = await insight().discardDeadLetters(
      { treeId: 'swap', selection: ALL, ...recounted },
      by,
    );
    expect(done.discardedCount).toBe(3n);
    expect(await countOf('swap')).toBe(0n);
  });

  it('a viewer may count but not discard; another tenant sees no letter to discard', async () => {
    const ids = await treeWithLetters('roles', ['r1']);
    const viewerDiscard = insight().discardDeadLetters(
      { treeId: 'roles', selection: ALL, ...(await confirmed('roles', ALL)) },
      as(h.tokens.viewer),
    );
    expect(await codeOf(viewerDiscard)).toBe(Code.PermissionDenied);
    const [refusal] = await discardRecords();
    expect(refusal).toMatchObject({ targetId: 'roles', outcome: 'PERMISSION_DENIED' });

    const other = as(h.tokens.other);
    expect((await insight().countPendingDeadLetters({ treeId: 'roles' }, other)).count).toBe(0n);
    const foreign = insight().discardDeadLetters(
      { treeId: 'roles', selection: one(ids[0]!), ...(await confirmed('roles', one(ids[0]!))) },
      other,
    );
    expect(await codeOf(foreign)).toBe(Code.NotFound);
    expect(await countOf('roles')).toBe(1n);
  });

  it("every count of a tree's dead letters agrees after letters, a replay and a discard", async () => {
    const ids = await treeWithLetters('agree', ['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(new Set(Object.values(await everyCount('agree')))).toEqual(new Set([5]));

    // p1 fixed and written, p2 replayed and refused again (still pending), p3 discarded.
    const by = as(h.tokens.operator);
    await insight().replayDeadLetter(
      { treeId: 'agree', deadLetterId: ids[0]!, valueJson: '{"name":"fixed"}' },
      by,
    );
    await insight().replayDeadLetter({ treeId: 'agree', deadLetterId: ids[1]! }, by);
    await insight().discardDeadLetters(
      { treeId: 'agree', selection: one(ids[2]!), ...(await confirmed('agree', one(ids[2]!))) },
      by,
    );
    expect(await everyCount('agree')).toEqual({
      listTrees: 3,
      countDeadLetters: 3,
      streamDeadLetters: 3,
      replaySection: 3,
      countPending: 3,
    });
  });

  it('discarded letters are deleted by the audit retention sweep once past the retention', async () => {
    const ids = await treeWithLetters('purge', ['old', 'new']);
    const by = as(h.tokens.operator);
    await insight().discardDeadLetters(
      { treeId: 'purge', selection: ALL, ...(await confirmed('purge', ALL)) },
      by,
    );
    // The first was discarded 400 days ago (the default retention is 365 days).
    await h.t.server.storage.db
      .updateTable('schema_dead_letters')
      .set({ discarded_at: Date.now() - 400 * 86_400_000 })
      .where('id', '=', Number(ids[0]))
      .execute();
    await h.t.server.audit.sweep();
    const left = await pendingRecords('purge', { includeDiscarded: true });
    expect(left.map((r) => r.entry?.key)).toEqual(['new']);
  });
});
