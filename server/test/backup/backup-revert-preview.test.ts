// The revert preview: what RevertRestore of an in-place restore would remove, change back and
// bring back, and how many writes made since the restore it would discard, computed by the
// restore preview's comparison machinery (BackupInsightService, viewer) and changing nothing.
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupComparisonKind,
  BackupDifferenceChange,
  BackupInsightService,
  StoreOperationKind,
  StoreOperationState,
  StoreRestoreMode,
  type StoreRestoreResult,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

describe.each(DIALECTS)('previewing the revert of a restore on %s', (dialect) => {
  let s: BackupServer;
  let viewer: ReturnType<typeof createClient<typeof BackupInsightService>>;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    const { token } = await s.t.server.tokens.issue({ tenant: 'default', roles: ['viewer'] });
    const transport = createGrpcTransport({
      baseUrl: s.t.server.grpcUrl,
      interceptors: [bearerInterceptor(token)],
    });
    viewer = createClient(BackupInsightService, transport);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  async function restoreOf(treeId: string, mode = StoreRestoreMode.IN_PLACE) {
    const capture = await s.finish(
      (await s.backup.startBackup({ name: 'full', scope: { treeId } })).operationId,
    );
    if (capture.result.case !== 'capture') throw new Error('no capture');
    const { backupId } = capture.result.value;
    return async () => {
      const status = await s.finish((await s.backup.startRestore({ backupId, mode })).operationId);
      if (status.result.case !== 'restore') throw new Error(`restore: ${status.error?.message}`);
      const { $typeName: _, ...response } = status.result.value as StoreRestoreResult;
      void _;
      return response;
    };
  }

  async function preview(restoreOperationId: string) {
    const handle = await viewer.startRevertPreview({ restoreOperationId });
    expect(handle.kind).toBe(StoreOperationKind.REVERT_PREVIEW);
    for (;;) {
      const { status } = await viewer.getBackupInsightOperationStatus({
        operationId: handle.operationId,
      });
      if (status && status.state >= StoreOperationState.SUCCEEDED) {
        expect(status.state, status.error?.message).toBe(StoreOperationState.SUCCEEDED);
        return handle.operationId;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('lists what the revert removes, changes back and brings back, and the writes it discards', async () => {
    await s.put('pv', { a: 1, b: 1, c: 1 });
    const restore = await restoreOf('pv');
    await s.put('pv', { a: 2, d: 4 });
    await s.data.deleteEntry({ treeId: 'pv', key: 'c' });
    const response = await restore(); // the tree holds a:1 b:1 c:1, it replaced a:2 b:1 d:4
    await s.put('pv', { b: 9, e: 5 }); // two writes since the restore

    const operationId = await preview(response.operationId);
    const { report, treeChanged } = await viewer.getBackupComparison({ operationId });
    expect(treeChanged).toBe(false);
    expect(report).toMatchObject({
      kind: BackupComparisonKind.REVERT_PREVIEW,
      treeId: 'pv',
      restoreOperationId: response.operationId,
      writesSinceRestore: 2n,
      counts: { added: 1n, changed: 2n, removed: 2n, unchanged: 0n },
    });
    const { differences } = await viewer.listBackupDifferences({ operationId });
    expect(differences.map((d) => [d.key, d.change, d.beforeJson, d.afterJson])).toEqual([
      ['a', BackupDifferenceChange.CHANGED, '1', '2'],
      ['b', BackupDifferenceChange.CHANGED, '9', '1'],
      ['c', BackupDifferenceChange.REMOVED, '1', undefined],
      ['d', BackupDifferenceChange.ADDED, undefined, '4'],
      ['e', BackupDifferenceChange.REMOVED, '5', undefined],
    ]);
    expect(await s.read('pv')).toEqual({ a: 1, b: 9, c: 1, e: 5 });

    // A write after the preview: the preview is stale and its acknowledged count no longer holds.
    await s.put('pv', { f: 6 });
    expect((await viewer.getBackupComparison({ operationId })).treeChanged).toBe(true);
    const acknowledged = report?.writesSinceRestore ?? 0n;
    expect(
      await codeOf(
        s.backup.revertRestore({ ...response, acknowledgedWritesSinceRestore: acknowledged }),
      ),
    ).toBe(Code.FailedPrecondition);
    await s.backup.revertRestore({ ...response, acknowledgedWritesSinceRestore: 3n });
    expect(await s.read('pv')).toEqual({ a: 2, b: 1, d: 4 });

    // Reverted: there is nothing left to preview.
    expect(
      await codeOf(viewer.startRevertPreview({ restoreOperationId: response.operationId })),
    ).toBe(Code.FailedPrecondition);
  });

  it('with no write since the restore it counts none', async () => {
    await s.put('still', { a: 1 });
    const restore = await restoreOf('still');
    await s.put('still', { a: 2 });
    const response = await restore();
    const operationId = await preview(response.operationId);
    const { report } = await viewer.getBackupComparison({ operationId });
    expect(report?.writesSinceRestore).toBe(0n);
    expect(report?.counts).toMatchObject({ added: 0n, changed: 1n, removed: 0n, unchanged: 0n });
  });

  it('refuses what RevertRestore would refuse, at once', async () => {
    expect(await codeOf(viewer.startRevertPreview({ restoreOperationId: '' }))).toBe(
      Code.InvalidArgument,
    );
    expect(await codeOf(viewer.startRevertPreview({ restoreOperationId: 'op-nope' }))).toBe(
      Code.NotFound,
    );
    await s.put('shadowed', { a: 1 });
    const shadow = await (await restoreOf('shadowed', StoreRestoreMode.SHADOW))();
    expect(
      await codeOf(viewer.startRevertPreview({ restoreOperationId: shadow.operationId })),
    ).toBe(Code.FailedPrecondition);
    await s.put('twice', { a: 1 });
    const restore = await restoreOf('twice');
    const first = await restore();
    await restore();
    expect(await codeOf(viewer.startRevertPreview({ restoreOperationId: first.operationId }))).toBe(
      Code.FailedPrecondition,
    );
  });
});
