import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  DrillProofService,
  RestoreDrillOutcome,
  RestoreDrillService,
  StoreOperationKind,
  StoreOperationState,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { startBackupServer, type BackupServer } from './backup-fixture.js';

// Issue 36 bullet 5 over the wire: after a real drill a viewer reads the tree's and the backup's
// last proven, sees the tree never drilled as such, and lists the drill among its operations.
describe.each(DIALECTS)('DrillProofService on %s', (dialect) => {
  let s: BackupServer;
  let token: { viewer: string; operator: string };
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    const issue = async (role: 'viewer' | 'operator') =>
      (await s.t.server.tokens.issue({ tenant: 'default', roles: [role], name: `${role} bot` }))
        .token;
    token = { viewer: await issue('viewer'), operator: await issue('operator') };
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  const transport = (t: string) =>
    createGrpcTransport({ baseUrl: s.t.server.grpcUrl, interceptors: [bearerInterceptor(t)] });

  it('a viewer reads last proven per tree and per backup, and the drill operations', async () => {
    await s.put('proven', { a: 1, b: 2, c: 3 });
    await s.put('unproven', { a: 1 });
    const captured = await s.backup.startBackup({ name: 'full', scope: { treeId: 'proven' } });
    const status = await s.finish(captured.operationId);
    if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
    const backupId = status.result.value.backupId;

    const drills = createClient(RestoreDrillService, transport(token.operator));
    const handle = await drills.startRestoreDrill({
      target: { case: 'backupId', value: backupId },
    });
    for (;;) {
      const { status: drill } = await drills.getRestoreDrillStatus({
        operationId: handle.operationId,
      });
      if (drill && drill.state >= StoreOperationState.SUCCEEDED) break;
      await new Promise((r) => setTimeout(r, 25));
    }

    const proofs = createClient(DrillProofService, transport(token.viewer));
    const trees = await proofs.listTreeProofs({});
    expect(
      trees.trees.map((t) => [t.treeId, t.lastProven?.backupId, t.lastDrill?.outcome]),
    ).toEqual([
      ['proven', backupId, RestoreDrillOutcome.PROVEN],
      ['unproven', undefined, undefined],
    ]);
    expect(trees.trees[0]?.lastProven?.entries).toBe(3n);
    // Named as the catalog names it, so the console shows the name, not the id.
    expect(trees.trees[0]?.lastProven?.backupName).toBe('full');
    expect(trees.trees[0]?.lastProven?.duration).toBeDefined();

    const backups = await proofs.getBackupProofs({ backupIds: [backupId, 'bk-unknown'] });
    expect(backups.backups.map((b) => [b.backupId, b.lastProven?.operationId])).toEqual([
      [backupId, handle.operationId],
      ['bk-unknown', undefined],
    ]);

    const ops = await proofs.listRestoreDrillOperations({ pageSize: 10 });
    expect(ops.operations.map((o) => [o.operationId, o.kind, o.state])).toEqual([
      [handle.operationId, StoreOperationKind.RESTORE_DRILL, StoreOperationState.SUCCEEDED],
    ]);
  });
});
