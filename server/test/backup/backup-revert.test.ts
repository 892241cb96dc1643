// RevertRestore trusts nothing of the response it is given but its operation id (DESIGN.md §3):
// every forged field, a restore overtaken by a later one, a previous tree that is gone, and
// another tenant's restore are refused, and the tree is left as it was. And it never drops a
// write silently: writes made since the restore refuse it unless their count and the tree's
// sequence mark (both from the revert preview) are acknowledged, and the audit record of the
// revert says how many it discarded.
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import {
  BackupControlService,
  StoreOperationKind,
  StoreOperationState,
  StoreRestoreMode,
  type StoreRestoreResult,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPhysicalTree } from '../../src/storage/data/physical-tree-store.js';
import { resolveTree } from '../../src/storage/data/tree-store.js';
import { auditClient, bearer } from '../audit/audit-support.js';
import { DIALECTS } from '../support/test-storage.js';
import { ADMIN_TOKEN, codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

/** The error a call failed with; throws when it succeeded. */
async function refusalOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error('the call succeeded');
}

describe.each(DIALECTS)('reverting a restore on %s', (dialect) => {
  let s: BackupServer;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  async function fullBackupOf(treeId: string, entries: Record<string, unknown>) {
    await s.put(treeId, entries);
    const status = await s.finish(
      (await s.backup.startBackup({ name: 'full', scope: { treeId } })).operationId,
    );
    if (status.result.case !== 'capture') throw new Error(`capture: ${status.error?.message}`);
    return status.result.value.backupId;
  }

  /** An IN_PLACE restore's result, as the response a client would send back. */
  async function restoreInPlace(backupId: string) {
    const status = await s.finish((await s.backup.startRestore({ backupId })).operationId);
    expect(status.state, status.error?.message).toBe(StoreOperationState.SUCCEEDED);
    if (status.result.case !== 'restore') throw new Error('no restore result');
    const { $typeName: _, ...response } = status.result.value as StoreRestoreResult;
    void _;
    return response;
  }

  /** The tree's sequence mark now: what a revert preview would report as tree_sequence. */
  async function sequenceOf(treeId: string): Promise<bigint> {
    const tree = await resolveTree(s.t.server.storage, 'default', treeId);
    if (!tree) throw new Error(`no tree ${treeId}`);
    return BigInt(tree.lastSequence);
  }

  /** The audit detail of the latest successful RevertRestore of `backupId`. */
  async function revertAuditDetail(backupId: string): Promise<string | undefined> {
    await s.t.server.audit.flush();
    const records = await auditClient(s.t.grpc, bearer(ADMIN_TOKEN)).all();
    return records.find(
      (r) => r.method === 'RevertRestore' && r.targetId === backupId && r.outcome === 'OK',
    )?.detail;
  }

  it('with no write since the restore, revert needs no acknowledgment and its audit says so', async () => {
    const backupId = await fullBackupOf('quiet', { a: 1 });
    await s.put('quiet', { a: 2, b: 2 });
    const response = await restoreInPlace(backupId);
    await s.backup.revertRestore(response);
    expect(await s.read('quiet')).toEqual({ a: 2, b: 2 });
    expect(await revertAuditDetail(backupId)).toBe(
      'tree quiet reverted; no writes were made since the restore',
    );
  });

  it('writes since the restore (puts and a delete) refuse the revert, naming their count; the tree keeps them', async () => {
    const backupId = await fullBackupOf('busy', { a: 1, b: 1 });
    await s.put('busy', { a: 2 });
    const response = await restoreInPlace(backupId);
    await s.put('busy', { c: 3 });
    await s.put('busy', { c: 4 });
    await s.data.deleteEntry({ treeId: 'busy', key: 'b' });

    // Each key written or deleted counts once: c (twice) and b's tombstone.
    const refusal = await refusalOf(s.backup.revertRestore(response));
    expect(refusal.code).toBe(Code.FailedPrecondition);
    expect(refusal.rawMessage).toBe(
      '2 writes were made to tree busy since the restore; preview the revert and acknowledge ' +
        'to discard them',
    );
    expect(await s.read('busy')).toEqual({ a: 1, c: 4 });
  });

  it('acknowledging the exact count and sequence reverts and the audit names the discarded writes; another count is refused', async () => {
    const backupId = await fullBackupOf('ack', { a: 1 });
    await s.put('ack', { a: 2 });
    const response = await restoreInPlace(backupId);
    await s.put('ack', { fixed: true });
    const acknowledgedThroughSequence = await sequenceOf('ack');

    const stale = await refusalOf(
      s.backup.revertRestore({
        ...response,
        acknowledgedWritesSinceRestore: 0n,
        acknowledgedThroughSequence,
      }),
    );
    expect(stale.code).toBe(Code.FailedPrecondition);
    expect(stale.rawMessage).toBe(
      '1 write was made to tree ack since the restore, not the 0 acknowledged; ' +
        'preview the revert again',
    );
    const malformed = [
      { acknowledgedWritesSinceRestore: -1n, acknowledgedThroughSequence },
      { acknowledgedWritesSinceRestore: 1n, acknowledgedThroughSequence: -1n },
      // One without the other: a count alone cannot tell a counted key written again.
      { acknowledgedWritesSinceRestore: 1n },
      { acknowledgedThroughSequence },
    ];
    for (const fields of malformed) {
      expect(await codeOf(s.backup.revertRestore({ ...response, ...fields }))).toBe(
        Code.InvalidArgument,
      );
    }
    expect(await s.read('ack')).toEqual({ a: 1, fixed: true });

    await s.backup.revertRestore({
      ...response,
      acknowledgedWritesSinceRestore: 1n,
      acknowledgedThroughSequence,
    });
    expect(await s.read('ack')).toEqual({ a: 2 });
    expect(await revertAuditDetail(backupId)).toBe(
      'tree ack reverted; discarded 1 acknowledged write made since the restore',
    );
  });

  it('a second write to a key already counted moves the sequence: the acknowledgment is refused and nothing is discarded', async () => {
    const backupId = await fullBackupOf('again', { a: 1 });
    await s.put('again', { a: 2 });
    const response = await restoreInPlace(backupId);
    await s.put('again', { k: 'seen' });
    const acknowledged = {
      acknowledgedWritesSinceRestore: 1n,
      acknowledgedThroughSequence: await sequenceOf('again'),
    };
    await s.put('again', { k: 'unseen' }); // the same key: the count stays 1

    const refusal = await refusalOf(s.backup.revertRestore({ ...response, ...acknowledged }));
    expect(refusal.code).toBe(Code.FailedPrecondition);
    expect(refusal.rawMessage).toBe(
      `tree again was written since the preview (sequence ${acknowledged.acknowledgedThroughSequence + 1n}, ` +
        `previewed ${acknowledged.acknowledgedThroughSequence}); preview the revert again`,
    );
    expect(await s.read('again')).toEqual({ a: 1, k: 'unseen' });

    await s.backup.revertRestore({
      ...response,
      acknowledgedWritesSinceRestore: 1n,
      acknowledgedThroughSequence: await sequenceOf('again'),
    });
    expect(await s.read('again')).toEqual({ a: 2 });
  });

  it('a response with any field changed is FailedPrecondition and swaps nothing', async () => {
    const backupId = await fullBackupOf('forge', { a: 1 });
    await s.put('forge', { a: 2, b: 2 });
    const genuine = await restoreInPlace(backupId);
    const restored = await s.read('forge');
    const forgeries = {
      backupId: { ...genuine, backupId: 'bk_other' },
      targetTreeId: { ...genuine, targetTreeId: 'elsewhere' },
      mode: { ...genuine, mode: StoreRestoreMode.SHADOW },
      manifestChain: { ...genuine, manifestChain: [] },
      entriesApplied: { ...genuine, entriesApplied: genuine.entriesApplied + 1n },
      shadowPhysicalTreeId: { ...genuine, shadowPhysicalTreeId: 'pt_x' },
      previousPhysicalTreeId: { ...genuine, previousPhysicalTreeId: 'pt_forged' },
    };
    for (const [field, forged] of Object.entries(forgeries)) {
      expect(await codeOf(s.backup.revertRestore(forged)), field).toBe(Code.FailedPrecondition);
    }
    expect(await codeOf(s.backup.revertRestore({ ...genuine, operationId: 'op-nope' }))).toBe(
      Code.NotFound,
    );
    expect(await s.read('forge')).toEqual(restored);
    await s.backup.revertRestore(genuine);
    expect(await s.read('forge')).toEqual({ a: 2, b: 2 });
  });

  it('a restore overtaken by a later restore of the tree is not reverted; the later one is', async () => {
    const backupId = await fullBackupOf('twice', { a: 1 });
    await s.put('twice', { a: 2 });
    const first = await restoreInPlace(backupId);
    await s.put('twice', { a: 3 });
    const second = await restoreInPlace(backupId);
    expect(await codeOf(s.backup.revertRestore(first))).toBe(Code.FailedPrecondition);
    expect(await s.read('twice')).toEqual({ a: 1 });
    await s.backup.revertRestore(second);
    expect(await s.read('twice')).toEqual({ a: 3 });
  });

  it('when the tree the restore replaced is gone, revert is FailedPrecondition and the tree stays', async () => {
    const backupId = await fullBackupOf('gone', { a: 1 });
    await s.put('gone', { a: 2 });
    const response = await restoreInPlace(backupId);
    expect(await dropPhysicalTree(s.t.server.storage, response.previousPhysicalTreeId!)).toBe(true);
    expect(await codeOf(s.backup.revertRestore(response))).toBe(Code.FailedPrecondition);
    expect(await s.read('gone')).toEqual({ a: 1 });
  });

  it('another tenant cannot revert a restore: its operation id is absent there', async () => {
    const backupId = await fullBackupOf('mine', { a: 1 });
    await s.put('mine', { a: 2 });
    const response = await restoreInPlace(backupId);
    const other = (await s.t.server.tokens.issue({ tenant: 'other', roles: ['admin'] })).token;
    const foreign = createClient(BackupControlService, s.t.grpc);
    const refused = foreign.revertRestore(response, {
      headers: { authorization: `Bearer ${other}` },
    });
    expect(await codeOf(refused)).toBe(Code.NotFound);
    expect(await s.read('mine')).toEqual({ a: 1 });
  });
  it('a reverted restore says who reverted it and when, in its status and in the list; others do not', async () => {
    const backupId = await fullBackupOf('marked', { a: 1 });
    await s.put('marked', { a: 2 });
    const reverted = await restoreInPlace(backupId);
    await s.put('marked', { a: 3 });
    const kept = await restoreInPlace(backupId);
    // The revert is asked by another admin than the one who restored.
    const issued = await s.t.server.tokens.issue({
      tenant: 'default',
      roles: ['admin'],
      name: 'release bot',
    });
    const reverter = `token:${issued.info.id}`;
    const restoreOf = async (operationId: string) => {
      const { status } = await s.backup.getBackupOperationStatus({ operationId });
      if (status?.result.case !== 'restore') throw new Error('no restore result');
      return { status, result: status.result.value };
    };
    const before = await restoreOf(reverted.operationId);
    expect(before.result.revertedAt).toBeUndefined();
    expect(before.result.revertedBy).toBeUndefined();

    // The first restore was overtaken by the second: revert the second, the one that can be.
    const from = Date.now();
    await createClient(BackupControlService, s.t.grpc).revertRestore(kept, {
      headers: { authorization: `Bearer ${issued.token}` },
    });
    const to = Date.now();
    expect(await s.read('marked')).toEqual({ a: 3 });

    const after = await restoreOf(kept.operationId);
    expect(after.status.createdBy).not.toBe(reverter);
    expect(after.result.revertedBy).toBe(reverter);
    const at = Number(timestampMs(after.result.revertedAt!));
    expect(at).toBeGreaterThanOrEqual(from);
    expect(at).toBeLessThanOrEqual(to);
    // The restore that was not reverted says nothing of a revert.
    const other = await restoreOf(reverted.operationId);
    expect(other.result.revertedAt).toBeUndefined();
    expect(other.result.revertedBy).toBeUndefined();

    // The list shows the same, for each restore on its page.
    const page = await s.backup.listBackupOperations({
      kinds: [StoreOperationKind.RESTORE],
      pageSize: 1000,
    });
    const listed = (id: string) => {
      const found = page.operations.find((o) => o.operationId === id);
      if (found?.result.case !== 'restore') throw new Error(`${id} is not listed as a restore`);
      return found.result.value;
    };
    expect(listed(kept.operationId).revertedBy).toBe(reverter);
    expect(Number(timestampMs(listed(kept.operationId).revertedAt!))).toBe(at);
    expect(listed(reverted.operationId).revertedAt).toBeUndefined();
  });
});
