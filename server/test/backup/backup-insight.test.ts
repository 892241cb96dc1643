import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupDifferenceChange,
  BackupInsightService,
  StoreOperationKind,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { callMethod, everyMethod } from '../support/call-every-rpc.js';
import {
  ARTIFACT_STORES,
  closeSharedS3Server,
  storeUnderTest,
  type StoreUnderTest,
} from '../support/artifact-stores.js';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

const ROLES = ['viewer', 'operator', 'admin'] as const;

afterAll(closeSharedS3Server);

describe.each(DIALECTS)('BackupInsightService over gRPC on %s', (dialect) => {
  describe.each(ARTIFACT_STORES)('with the %s artifact store', (kind) => {
    let store: StoreUnderTest;
    let s: BackupServer;
    let insight: ReturnType<typeof createClient<typeof BackupInsightService>>;
    const tokens: Record<string, string> = {};
    beforeAll(async () => {
      store = await storeUnderTest(kind);
      s = await startBackupServer(dialect, store.env);
      for (const role of ROLES) {
        tokens[role] = (await s.t.server.tokens.issue({ tenant: 'default', roles: [role] })).token;
      }
      tokens.other = (await s.t.server.tokens.issue({ tenant: 'other', roles: ['admin'] })).token;
      insight = clientFor(tokens.viewer!);
    });
    afterAll(async () => {
      await s?.t.dispose();
    });

    function clientFor(token: string) {
      const transport = createGrpcTransport({
        baseUrl: s.t.server.grpcUrl,
        interceptors: [bearerInterceptor(token)],
      });
      return createClient(BackupInsightService, transport);
    }

    async function finish(
      client: typeof insight,
      operationId: string,
    ): Promise<StoreOperationStatus> {
      for (;;) {
        const { status } = await client.getBackupInsightOperationStatus({ operationId });
        if (!status) throw new Error(`operation ${operationId} is not visible`);
        if (status.state >= StoreOperationState.SUCCEEDED) return status;
        await new Promise((r) => setTimeout(r, 25));
      }
    }

    async function capture(treeId: string, base?: string) {
      const handle = base
        ? await s.backup.startIncrementalBackup({
            name: 'inc',
            scope: { treeId },
            baseBackupId: base,
          })
        : await s.backup.startBackup({ name: 'full', scope: { treeId } });
      const status = await s.finish(handle.operationId);
      if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
      return status.result.value.backupId;
    }

    // ConfigureScheduleExtras carries ScheduleBackup's grant (operator), as the role table says;
    // keeping a comparison's differences is the admin's storage decision.
    const OPERATOR_METHODS = new Set(['StartStaleHealthCheck', 'ConfigureScheduleExtras']);
    const ADMIN_METHODS = new Set(['KeepBackupComparison']);

    it('every RPC needs viewer (verify stale backups and schedule settings: operator; keep: admin): anonymous is PermissionDenied, each role passes', async () => {
      for (const [service, method] of everyMethod([BackupInsightService])) {
        expect(await callMethod(s.t.grpc, service, method, {}), method.name).toBe(
          Code.PermissionDenied,
        );
        const least = ADMIN_METHODS.has(method.name)
          ? 2
          : OPERATOR_METHODS.has(method.name)
            ? 1
            : 0;
        for (const role of ROLES.slice(0, least)) {
          const below = await callMethod(s.t.grpc, service, method, {
            authorization: `Bearer ${tokens[role]}`,
          });
          expect(below, `${method.name} as ${role}`).toBe(Code.PermissionDenied);
        }
        for (const role of ROLES.slice(least)) {
          const outcome = await callMethod(s.t.grpc, service, method, {
            authorization: `Bearer ${tokens[role]}`,
          });
          expect(
            [Code.PermissionDenied, Code.Unauthenticated],
            `${method.name} as ${role}`,
          ).not.toContain(outcome);
        }
      }
    });

    it('a viewer previews a restore; an operator pages through the differences with both values', async () => {
      await s.put('orders', { a: 1, b: 2, c: 3 });
      const full = await capture('orders');
      await s.put('orders', { b: 20, d: 4 });
      await s.data.deleteEntry({ treeId: 'orders', key: 'c' });

      const handle = await insight.startRestorePreview({ backupId: full });
      expect(handle.kind).toBe(StoreOperationKind.RESTORE_PREVIEW);
      const status = await finish(insight, handle.operationId);
      expect(status.state).toBe(StoreOperationState.SUCCEEDED);
      expect(Number(status.progress?.done)).toBe(3);

      const { report, treeChanged } = await insight.getBackupComparison({
        operationId: handle.operationId,
      });
      expect(treeChanged).toBe(false);
      expect(report?.counts).toMatchObject({ added: 1n, changed: 1n, removed: 1n, unchanged: 1n });
      expect(report?.toChain).toEqual([full]);
      // The values are a copy of the backup's: the role of ExportArtifact reads them.
      const operator = clientFor(tokens.operator!);
      const first = await operator.listBackupDifferences({
        operationId: handle.operationId,
        pageSize: 2,
      });
      const second = await operator.listBackupDifferences({
        operationId: handle.operationId,
        pageSize: 2,
        pageToken: first.nextPageToken,
      });
      expect(second.nextPageToken).toBe('');
      expect(
        [...first.differences, ...second.differences].map((d) => [
          d.key,
          d.change,
          d.beforeJson,
          d.afterJson,
        ]),
      ).toEqual([
        ['b', BackupDifferenceChange.CHANGED, '20', '2'],
        ['c', BackupDifferenceChange.ADDED, undefined, '3'],
        ['d', BackupDifferenceChange.REMOVED, '4', undefined],
      ]);

      // A write after the preview: the console warns before a restore started from it.
      await s.put('orders', { e: 5 });
      const later = await insight.getBackupComparison({ operationId: handle.operationId });
      expect(later.treeChanged).toBe(true);
      expect(later.currentTreeSequence).toBeGreaterThan(later.report?.treeSequence ?? 0n);

      // The family rule: the backup service does not see insight kinds, nor the other way round.
      const seen = await s.backup.getBackupOperationStatus({ operationId: handle.operationId });
      expect(seen.status).toBeUndefined();
      const listed = await insight.listBackupInsightOperations({});
      // The role test above started two "verify stale backups" runs (operator, admin).
      const comparisons = listed.operations.filter(
        (o) => o.kind !== StoreOperationKind.STALE_HEALTH_CHECK,
      );
      expect(comparisons.map((o) => o.kind)).toEqual([StoreOperationKind.RESTORE_PREVIEW]);
      const backupOps = await insight.getBackupInsightOperationStatus({
        operationId: (await s.backup.listBackupOperations({})).operations[0]?.operationId ?? '',
      });
      expect(backupOps.status).toBeUndefined();
      expect(
        await codeOf(insight.listBackupInsightOperations({ kinds: [StoreOperationKind.BACKUP] })),
      ).toBe(Code.InvalidArgument);
    });

    it('a diff of a full and its incremental; another tenant sees none of it', async () => {
      await s.put('items', { x: 1, y: 2 });
      const full = await capture('items');
      await s.put('items', { y: 3, z: 4 });
      const inc = await capture('items', full);
      const handle = await insight.startBackupDiff({ fromBackupId: full, toBackupId: inc });
      expect(handle.kind).toBe(StoreOperationKind.BACKUP_DIFF);
      await finish(insight, handle.operationId);
      const { report } = await insight.getBackupComparison({ operationId: handle.operationId });
      expect(report?.fromChain).toEqual([full]);
      expect(report?.toChain).toEqual([full, inc]);
      const changed = await clientFor(tokens.operator!).listBackupDifferences({
        operationId: handle.operationId,
        changes: [BackupDifferenceChange.CHANGED],
      });
      expect(changed.differences.map((d) => [d.key, d.beforeJson, d.afterJson])).toEqual([
        ['y', '2', '3'],
      ]);

      const other = clientFor(tokens.other!);
      expect(
        (await other.getBackupInsightOperationStatus({ operationId: handle.operationId })).status,
      ).toBeUndefined();
      expect((await other.getBackupComparison({ operationId: handle.operationId })).report).toBe(
        undefined,
      );
      expect(await codeOf(other.listBackupDifferences({ operationId: handle.operationId }))).toBe(
        Code.NotFound,
      );
      expect(await codeOf(other.startBackupDiff({ fromBackupId: full, toBackupId: inc }))).toBe(
        Code.NotFound,
      );
    });

    it('answers bad requests with the right codes', async () => {
      expect(await codeOf(insight.startRestorePreview({ backupId: '' }))).toBe(
        Code.InvalidArgument,
      );
      expect(await codeOf(insight.startRestorePreview({ backupId: 'absent' }))).toBe(Code.NotFound);
      expect(
        await codeOf(insight.listBackupDifferences({ operationId: 'x', pageToken: '%%' })),
      ).toBe(Code.InvalidArgument);
      expect(
        await codeOf(
          insight.listBackupDifferences({
            operationId: 'x',
            changes: [99 as BackupDifferenceChange],
          }),
        ),
      ).toBe(Code.InvalidArgument);
    });
  });
});
