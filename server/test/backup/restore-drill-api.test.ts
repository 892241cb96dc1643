import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  RestoreDrillOutcome,
  RestoreDrillReasonKind,
  RestoreDrillService,
  StoreOperationKind,
  StoreOperationState,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { ADMIN_TOKEN, codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

type DrillClient = ReturnType<typeof createClient<typeof RestoreDrillService>>;

function drillClient(grpcUrl: string, token: string): DrillClient {
  const transport = createGrpcTransport({
    baseUrl: grpcUrl,
    interceptors: [bearerInterceptor(token)],
  });
  return createClient(RestoreDrillService, transport);
}

// Issue 36 bullets 2 and 7 over the wire: an operator starts a drill, a viewer reads its result
// and the scope's history but may not start one; the scratch tree never shows in ListTrees.
describe.each(DIALECTS)('RestoreDrillService on %s', (dialect) => {
  let s: BackupServer;
  let viewer: DrillClient;
  let operator: DrillClient;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    const issue = async (role: 'viewer' | 'operator') =>
      (await s.t.server.tokens.issue({ tenant: 'default', roles: [role], name: `${role} bot` }))
        .token;
    viewer = drillClient(s.t.server.grpcUrl, await issue('viewer'));
    operator = drillClient(s.t.server.grpcUrl, await issue('operator'));
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  async function settle(client: DrillClient, operationId: string) {
    for (;;) {
      const { status } = await client.getRestoreDrillStatus({ operationId });
      if (!status) throw new Error(`drill ${operationId} is not visible`);
      if (status.state >= StoreOperationState.SUCCEEDED) return status;
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('an operator drills a backup to PROVEN; a viewer reads the result and history but is refused a start', async () => {
    const entries: Record<string, unknown> = {};
    for (let i = 0; i < 30; i++) entries[`key-${i}`] = { i, text: `"${i}"` };
    await s.put('drilled', entries);
    const captured = await s.backup.startBackup({ name: 'full', scope: { treeId: 'drilled' } });
    const status = await s.finish(captured.operationId);
    if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
    const backupId = status.result.value.backupId;

    expect(
      await codeOf(viewer.startRestoreDrill({ target: { case: 'backupId', value: backupId } })),
    ).toBe(Code.PermissionDenied);
    expect(await codeOf(viewer.cancelRestoreDrill({ operationId: 'x' }))).toBe(
      Code.PermissionDenied,
    );

    const handle = await operator.startRestoreDrill({
      target: { case: 'backupId', value: backupId },
      sampleSeed: 42,
    });
    const done = await settle(viewer, handle.operationId);
    expect(done.state).toBe(StoreOperationState.SUCCEEDED);
    expect(done.kind).toBe(StoreOperationKind.RESTORE_DRILL);
    // Not a backup-family operation: the backup service does not see it.
    expect(
      (await s.backup.getBackupOperationStatus({ operationId: handle.operationId })).status,
    ).toBeUndefined();

    const result = await viewer.getRestoreDrillResult({ operationId: handle.operationId });
    expect(result).toMatchObject({
      available: true,
      outcome: RestoreDrillOutcome.PROVEN,
      reasonKind: RestoreDrillReasonKind.UNSPECIFIED,
      entries: 30n,
      sampleSeed: 42,
    });
    expect(result.reason).toMatch(
      /restored 30 entries; content digest and 30 sampled entries match/,
    );
    expect(result.backups.map((b) => [b.backupId, b.scope?.treeId])).toEqual([
      [backupId, 'drilled'],
    ]);
    expect(result.backups[0]?.startedBy).not.toBe('');

    const history = await viewer.listRestoreDrills({ scope: { treeId: 'drilled' } });
    expect(history.drills.map((d) => [d.backupId, d.outcome, d.sampleSize])).toEqual([
      [backupId, RestoreDrillOutcome.PROVEN, 100],
    ]);
    expect(history.drills[0]?.entriesPerSecond).toBeGreaterThan(0);
    expect(history.drills[0]?.backupName).toBe('full');

    // A second drill: the history is newest first, a page at a time.
    const again = await operator.startRestoreDrill({
      target: { case: 'backupId', value: backupId },
    });
    await settle(operator, again.operationId);
    const newest = await viewer.listRestoreDrills({ scope: { treeId: 'drilled' }, pageSize: 1 });
    expect(newest.drills.map((d) => d.operationId)).toEqual([again.operationId]);
    const older = await viewer.listRestoreDrills({
      scope: { treeId: 'drilled' },
      pageSize: 1,
      pageToken: newest.nextPageToken,
    });
    expect(older.drills.map((d) => d.operationId)).toEqual([handle.operationId]);
    expect(older.nextPageToken).toBe('');

    const trees = await s.data.listTrees({ pageSize: 100 });
    expect(trees.trees.map((t) => t.treeId)).toEqual(['drilled']);
  });

  it('refuses a start naming no backup, an unknown backup, and a bad page token', async () => {
    expect(await codeOf(operator.startRestoreDrill({}))).toBe(Code.InvalidArgument);
    expect(
      await codeOf(operator.startRestoreDrill({ target: { case: 'backupId', value: 'nope' } })),
    ).toBe(Code.NotFound);
    expect(
      await codeOf(viewer.listRestoreDrills({ scope: { treeId: 'drilled' }, pageToken: 'zz' })),
    ).toBe(Code.InvalidArgument);
    const admin = drillClient(s.t.server.grpcUrl, ADMIN_TOKEN);
    expect(await codeOf(admin.listRestoreDrills({}))).toBe(Code.InvalidArgument);
  });
});
