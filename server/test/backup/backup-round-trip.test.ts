import { Code } from '@connectrpc/connect';
import {
  BackupKind,
  StoreOperationState,
  StoreRestoreMode,
  type StoreRestoreResult,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
  type StoreUnderTest,
} from '../support/artifact-stores.js';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

/** The RestoreResponse fields of a tracked restore's result (what a client would send back). */
function asResponse(r: StoreRestoreResult) {
  return {
    backupId: r.backupId,
    targetTreeId: r.targetTreeId,
    mode: r.mode,
    operationId: r.operationId,
    manifestChain: r.manifestChain,
    entriesApplied: r.entriesApplied,
    shadowPhysicalTreeId: r.shadowPhysicalTreeId,
    previousPhysicalTreeId: r.previousPhysicalTreeId,
  };
}

afterAll(closeSharedS3Server);

describe.each(DIALECTS)('backup round trip on %s', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    let store: StoreUnderTest;
    let s: BackupServer;
    beforeAll(async () => {
      store = await storeUnderTest(kind);
      s = await startBackupServer(dialect, store.env);
    });
    afterAll(async () => {
      await s?.t.dispose();
    });

    async function capture(treeId: string, base?: string) {
      const handle = base
        ? await s.backup.startIncrementalBackup({
            name: 'inc',
            scope: { treeId },
            baseBackupId: base,
          })
        : await s.backup.startBackup({ name: 'full', scope: { treeId }, pageSize: 7 });
      const status = await s.finish(handle.operationId);
      expect(status.error?.message ?? '').toBe('');
      expect(status.result.case).toBe('capture');
      // Ends at its total, tombstones counted once: an incremental with deletions never shows
      // more entries done than there are.
      expect(status.progress?.done).toBe(status.progress?.total);
      if (status.result.case !== 'capture') throw new Error('no capture');
      return status.result.value;
    }

    async function restore(request: Parameters<BackupServer['backup']['startRestore']>[0]) {
      const handle = await s.backup.startRestore(request);
      const status = await s.finish(handle.operationId);
      return status;
    }

    it('full → changes → incremental → restore in each mode gives the expected tree; revert brings back the previous one', async () => {
      const initial: Record<string, unknown> = {};
      for (let i = 0; i < 40; i++) initial[`k${String(i).padStart(3, '0')}`] = { i, v: 'one' };
      await s.put('rt', initial);
      const full = await capture('rt');
      expect(full.manifest?.kind).toBe(BackupKind.FULL);
      expect(Number(full.manifest?.entryCount)).toBe(40);

      await s.put('rt', { k001: { i: 1, v: 'two' }, k100: { new: true } });
      await s.data.deleteEntry({ treeId: 'rt', key: 'k002' });
      const expected = await s.read('rt');
      const inc = await capture('rt', full.backupId);
      expect(inc.manifest?.kind).toBe(BackupKind.INCREMENTAL);
      expect(Number(inc.manifest?.entryCount)).toBe(3);
      expect(Number(inc.manifest?.tombstoneCount)).toBe(1);

      // Damage the live tree, then restore IN_PLACE.
      await s.put('rt', { k003: 'junk', zzz: 'junk' });
      const damaged = await s.read('rt');
      const inPlace = await restore({ backupId: inc.backupId, applyBatchSize: 5 });
      expect(inPlace.state).toBe(StoreOperationState.SUCCEEDED);
      // No target named: the backup's own tree, which the status leaves to the backup.
      expect(inPlace.targetTreeId).toBeUndefined();
      // Progress in the chain's entries (40 of the full, 3 of the incremental), known before
      // the first entry is applied: the console shows a percent and the time left.
      expect(inPlace.progress).toMatchObject({ done: 43n, total: 43n, unit: 'entries' });
      expect(await s.read('rt')).toEqual(expected);
      if (inPlace.result.case !== 'restore') throw new Error('no restore');
      const result = asResponse(inPlace.result.value);
      expect(result.manifestChain).toEqual([full.backupId, inc.backupId]);
      expect(result.previousPhysicalTreeId).toBeTruthy();

      // Sequences continue after the restore: a write gets a number above every earlier one.
      const put = await s.data.putEntry({ treeId: 'rt', key: 'after', valueJson: '1' });
      expect(Number(put.sequence)).toBeGreaterThan(Number(inc.manifest?.toSequence));
      await s.data.deleteEntry({ treeId: 'rt', key: 'after' });

      // A forged response (other previous tree) is refused; the genuine one reverts exactly once
      // the write made since the restore (the put and delete of one key) is acknowledged.
      const forged = { ...result, previousPhysicalTreeId: 'pt_forged' };
      expect(await codeOf(s.backup.revertRestore(forged))).toBe(Code.FailedPrecondition);
      expect(await codeOf(s.backup.revertRestore(result))).toBe(Code.FailedPrecondition);
      await s.backup.revertRestore({
        ...result,
        acknowledgedWritesSinceRestore: 1n,
        // The delete took the sequence after the put's: the tree's mark, as a preview reports it.
        acknowledgedThroughSequence: put.sequence + 1n,
      });
      expect(await s.read('rt')).toEqual(damaged);
      expect(await codeOf(s.backup.revertRestore(result))).toBe(Code.FailedPrecondition);

      // NEW_TREE into an empty tree works; into a non-empty one it is refused. Its status names
      // the target tree from the start (its result only once it succeeded), listed or single.
      const freshHandle = await s.backup.startRestore({
        backupId: inc.backupId,
        mode: StoreRestoreMode.NEW_TREE,
        targetTreeId: 'rt-copy',
      });
      const { status: started } = await s.backup.getBackupOperationStatus({
        operationId: freshHandle.operationId,
      });
      expect(started?.targetTreeId).toBe('rt-copy');
      const fresh = await s.finish(freshHandle.operationId);
      expect(fresh.state).toBe(StoreOperationState.SUCCEEDED);
      expect(fresh.targetTreeId).toBe('rt-copy');
      const listed = await s.backup.listBackupOperations({ targetId: inc.backupId });
      expect(
        listed.operations.find((o) => o.operationId === freshHandle.operationId)?.targetTreeId,
      ).toBe('rt-copy');
      expect(await s.read('rt-copy')).toEqual(expected);
      expect(
        await codeOf(
          s.backup.startRestore({
            backupId: inc.backupId,
            mode: StoreRestoreMode.NEW_TREE,
            targetTreeId: 'rt-copy',
          }),
        ),
      ).toBe(Code.FailedPrecondition);

      // SHADOW leaves the tree alone and says where the copy is.
      const shadow = await restore({ backupId: full.backupId, mode: StoreRestoreMode.SHADOW });
      if (shadow.result.case !== 'restore') throw new Error('no restore');
      expect(shadow.result.value.shadowPhysicalTreeId).toMatch(/^pt_/);
      expect(await s.read('rt')).toEqual(damaged);
      expect(await codeOf(s.backup.revertRestore(asResponse(shadow.result.value)))).toBe(
        Code.FailedPrecondition,
      );

      // A repeated restore with the same restore operation id is a no-op returning the first result.
      const first = await restore({
        backupId: full.backupId,
        targetTreeId: 'rt-idem',
        operationId: 'r-1',
      });
      await s.put('rt-idem', { extra: 1 });
      const again = await restore({
        backupId: full.backupId,
        targetTreeId: 'rt-idem',
        operationId: 'r-1',
      });
      expect(again.result).toEqual(first.result);
      expect((await s.read('rt-idem')).extra).toBe(1);
    });

    it('a scoped restore replaces only its key prefix', async () => {
      await s.put('sc', { 'a/1': 1, 'a/2': 2, 'b/1': 1 });
      const full = await capture('sc');
      await s.put('sc', { 'a/1': 10, 'a/3': 3, 'b/1': 10 });
      const status = await restore({
        backupId: full.backupId,
        scope: { treeId: 'sc', keyPrefix: 'a/' },
      });
      expect(status.state).toBe(StoreOperationState.SUCCEEDED);
      expect(await s.read('sc')).toEqual({ 'a/1': 1, 'a/2': 2, 'b/1': 10 });
      // Its progress ends at what it applied (two entries under a/), not at 2 of the backup's 3.
      expect(status.progress).toMatchObject({ done: 2n, total: 2n });
    });

    it('incrementals need a base of the same tree and refuse absent bases and bad page sizes', async () => {
      await s.put('x1', { a: 1 });
      await s.put('x2', { a: 1 });
      const full = await capture('x1');
      expect(
        await codeOf(
          s.backup.startIncrementalBackup({
            name: 'i',
            scope: { treeId: 'x2' },
            baseBackupId: full.backupId,
          }),
        ),
      ).toBe(Code.FailedPrecondition);
      expect(
        await codeOf(
          s.backup.startIncrementalBackup({
            name: 'i',
            scope: { treeId: 'x1' },
            baseBackupId: 'bk_nope',
          }),
        ),
      ).toBe(Code.NotFound);
      expect(
        await codeOf(
          s.backup.startBackup({ name: 'f', scope: { treeId: 'x1' }, pageSize: 10_001 }),
        ),
      ).toBe(Code.InvalidArgument);
      expect(await codeOf(s.backup.startBackup({ name: 'f', scope: { treeId: '../x' } }))).toBe(
        Code.InvalidArgument,
      );
      expect(await codeOf(s.backup.startRestore({ backupId: 'bk_nope' }))).toBe(Code.NotFound);
    });
  });
});
