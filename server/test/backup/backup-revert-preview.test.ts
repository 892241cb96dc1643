// The revert preview: what RevertRestore of an in-place restore would remove, change back and
// bring back, and how many writes made since the restore it would discard, computed by the
// restore preview's comparison machinery (BackupInsightService, viewer) and changing nothing.
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupComparisonKind,
  type BackupComparisonReport,
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

/** What RevertRestore takes from a revert preview's report: its count and sequence mark. */
function acknowledgmentOf(report: BackupComparisonReport | undefined) {
  if (!report) throw new Error('no report');
  return {
    acknowledgedWritesSinceRestore: report.writesSinceRestore,
    acknowledgedThroughSequence: report.treeSequence,
  };
}

/** The error a call failed with; throws when it succeeded. */
async function refusalOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error('the call succeeded');
}

describe.each(DIALECTS)('previewing the revert of a restore on %s', (dialect) => {
  let s: BackupServer;
  let viewer: ReturnType<typeof createClient<typeof BackupInsightService>>;
  // Reads the differences' values, which need the operator role (docs/security.md, "Preview
  // storage").
  let operator: typeof viewer;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    const clientOf = async (role: 'viewer' | 'operator') => {
      const { token } = await s.t.server.tokens.issue({ tenant: 'default', roles: [role] });
      const transport = createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(token)],
      });
      return createClient(BackupInsightService, transport);
    };
    viewer = await clientOf('viewer');
    operator = await clientOf('operator');
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
    const { differences } = await operator.listBackupDifferences({ operationId });
    expect(differences.map((d) => [d.key, d.change, d.beforeJson, d.afterJson])).toEqual([
      ['a', BackupDifferenceChange.CHANGED, '1', '2'],
      ['b', BackupDifferenceChange.CHANGED, '9', '1'],
      ['c', BackupDifferenceChange.REMOVED, '1', undefined],
      ['d', BackupDifferenceChange.ADDED, undefined, '4'],
      ['e', BackupDifferenceChange.REMOVED, '5', undefined],
    ]);
    expect(await s.read('pv')).toEqual({ a: 1, b: 9, c: 1, e: 5 });

    // A write after the preview: the preview is stale and its acknowledgment no longer holds.
    await s.put('pv', { f: 6 });
    expect((await viewer.getBackupComparison({ operationId })).treeChanged).toBe(true);
    expect(await codeOf(s.backup.revertRestore({ ...response, ...acknowledgmentOf(report) }))).toBe(
      Code.FailedPrecondition,
    );
    const again = await preview(response.operationId);
    const fresh = (await viewer.getBackupComparison({ operationId: again })).report;
    expect(fresh?.writesSinceRestore).toBe(3n);
    await s.backup.revertRestore({ ...response, ...acknowledgmentOf(fresh) });
    expect(await s.read('pv')).toEqual({ a: 2, b: 1, d: 4 });

    // Reverted: there is nothing left to preview.
    expect(
      await codeOf(viewer.startRevertPreview({ restoreOperationId: response.operationId })),
    ).toBe(Code.FailedPrecondition);
  });

  it('a second write to a key the preview counted refuses the revert with that preview; a new preview reverts', async () => {
    await s.put('same', { a: 1 });
    const restore = await restoreOf('same');
    await s.put('same', { a: 2 });
    const response = await restore();
    await s.put('same', { k: 'previewed' });
    const first = (
      await viewer.getBackupComparison({ operationId: await preview(response.operationId) })
    ).report;
    expect(first?.writesSinceRestore).toBe(1n);

    // The same key again: the count of keys written since the restore is still 1.
    await s.put('same', { k: 'never shown' });
    const refusal = await refusalOf(
      s.backup.revertRestore({ ...response, ...acknowledgmentOf(first) }),
    );
    expect(refusal.code).toBe(Code.FailedPrecondition);
    expect(refusal.rawMessage).toMatch(
      /^tree same was written since the preview .*; preview the revert again$/,
    );
    expect(await s.read('same')).toEqual({ a: 1, k: 'never shown' });

    const again = await preview(response.operationId);
    const second = (await viewer.getBackupComparison({ operationId: again })).report;
    expect(second?.writesSinceRestore).toBe(1n);
    expect(second?.treeSequence).toBeGreaterThan(first?.treeSequence ?? 0n);
    const { differences } = await operator.listBackupDifferences({ operationId: again });
    expect(differences.find((d) => d.key === 'k')?.beforeJson).toBe('"never shown"');
    await s.backup.revertRestore({ ...response, ...acknowledgmentOf(second) });
    expect(await s.read('same')).toEqual({ a: 2 });
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
