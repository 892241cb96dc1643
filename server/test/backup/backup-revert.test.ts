// RevertRestore trusts nothing of the response it is given but its operation id (DESIGN.md §3):
// every forged field, a restore overtaken by a later one, a previous tree that is gone, and
// another tenant's restore are refused, and the tree is left as it was.
import { Code, createClient } from '@connectrpc/connect';
import {
  BackupControlService,
  StoreOperationState,
  StoreRestoreMode,
  type StoreRestoreResult,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropPhysicalTree } from '../../src/storage/physical-tree-store.js';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

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
});
