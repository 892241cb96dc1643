// Issue 36, bullet 4: retention knows proof. The newest backup of a scope a restore drill proved
// restorable is kept with its chain, by its own keep reason; the preview says when the rules alone
// would delete it; a drill that ends after a preview makes it stale. Real server, real drills,
// both databases.
import { Code, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  KeepReasonKind,
  RestoreDrillOutcome,
  RestoreDrillService,
  RetentionAction,
  StoreOperationState,
  type RetentionPreview,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { ADMIN_TOKEN, codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';
import {
  capture,
  catalogIds,
  lifecycleClient,
  settleLifecycle,
  type LifecycleClient,
} from './lifecycle-fixture.js';

describe.each(DIALECTS)('retention knows proof on %s', (dialect) => {
  let s: BackupServer;
  let admin: LifecycleClient;
  let drills: ReturnType<typeof createClient<typeof RestoreDrillService>>;
  beforeAll(async () => {
    s = await startBackupServer(dialect);
    admin = lifecycleClient(s.t.server.grpcUrl);
    const transport = createGrpcTransport({
      baseUrl: s.t.server.grpcUrl,
      interceptors: [bearerInterceptor(ADMIN_TOKEN)],
    });
    drills = createClient(RestoreDrillService, transport);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  /** Drills a backup (with its chain) for real and expects it PROVEN. */
  async function prove(backupId: string): Promise<void> {
    const { operationId } = await drills.startRestoreDrill({
      target: { case: 'backupId', value: backupId },
    });
    for (;;) {
      const { status } = await drills.getRestoreDrillStatus({ operationId });
      if (status && status.state >= StoreOperationState.SUCCEEDED) {
        expect(status.state).toBe(StoreOperationState.SUCCEEDED);
        break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    const result = await drills.getRestoreDrillResult({ operationId });
    expect(result.outcome).toBe(RestoreDrillOutcome.PROVEN);
  }

  const deletions = (preview: RetentionPreview) =>
    preview.entries.filter((e) => e.action === RetentionAction.DELETE).map((e) => e.backupId);
  const reasonsOf = (preview: RetentionPreview, id: string) =>
    preview.entries.find((e) => e.backupId === id)?.reasons.map((r) => [r.kind, r.text]);

  async function apply(scope: { treeId: string }, fingerprint: string) {
    const handle = await admin.startRetentionApply({ scope, expectedFingerprint: fingerprint });
    const status = await settleLifecycle(admin, handle.operationId);
    expect(status.state).toBe(StoreOperationState.SUCCEEDED);
  }

  it('keeps the newest proven backup and its chain past keep-last, refuses a preview from before the drill, and moves the keep to a newer proven backup', async () => {
    const tree = 'proven-chain';
    const scope = { treeId: tree };
    const f1 = await capture(s, tree);
    const i1 = await capture(s, tree, f1);
    const f2 = await capture(s, tree);
    const f3 = await capture(s, tree);
    const f4 = await capture(s, tree);
    await admin.setRetentionRules({ scope, rules: { keepLast: 2 } });
    const unproven = await admin.previewRetention({ scope });
    expect(deletions(unproven).sort()).toEqual([f1, i1, f2].sort());

    await prove(i1);
    // The drill ended after that preview: its plan would delete the proof, so it is stale.
    expect(
      await codeOf(admin.startRetentionApply({ scope, expectedFingerprint: unproven.fingerprint })),
    ).toBe(Code.FailedPrecondition);
    expect(await catalogIds(s, tree)).toEqual([f1, i1, f2, f3, f4].sort());

    const proven = await admin.previewRetention({ scope });
    expect(proven.fingerprint).not.toBe(unproven.fingerprint);
    expect(deletions(proven)).toEqual([f2]);
    expect(reasonsOf(proven, i1)).toEqual([
      [
        KeepReasonKind.PROVEN_RESTORABLE,
        'newest proven restorable: your rules alone would delete it',
      ],
    ]);
    expect(reasonsOf(proven, f1)).toEqual([
      [
        KeepReasonKind.PROVEN_RESTORABLE,
        'in the chain of the newest proven restorable backup: your rules alone would delete it',
      ],
      [KeepReasonKind.BASE, `base of inc of ${f1}`],
    ]);
    expect(reasonsOf(proven, f4)).toEqual([[KeepReasonKind.LAST, 'last 1 of 2']]);
    await apply(scope, proven.fingerprint);
    expect(await catalogIds(s, tree)).toEqual([f1, i1, f3, f4].sort());

    // A newer backup proven: the keep moves to it (the rules keep it too, so no warning), and
    // the old proof's chain goes.
    await prove(f3);
    const moved = await admin.previewRetention({ scope });
    expect(deletions(moved).sort()).toEqual([f1, i1].sort());
    expect(reasonsOf(moved, f3)).toEqual([
      [KeepReasonKind.LAST, 'last 2 of 2'],
      [KeepReasonKind.PROVEN_RESTORABLE, 'newest proven restorable'],
    ]);
    await apply(scope, moved.fingerprint);
    expect(await catalogIds(s, tree)).toEqual([f3, f4].sort());
  });
});
