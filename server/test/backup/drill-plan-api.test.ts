import { Code, createClient, type Transport } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import {
  BackupInsightService,
  DrillPlanBackupChoice,
  DrillPlanRunOutcome,
  RestoreDrillOutcome,
  RestoreDrillPlanService,
  RestoreDrillService,
  StoreOperationState,
  durationFromMs,
} from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerInterceptor } from '../support/bearer.js';
import { DIALECTS } from '../support/test-storage.js';
import { codeOf, startBackupServer, type BackupServer } from './backup-fixture.js';

const transportOf = (grpcUrl: string, token: string): Transport =>
  createGrpcTransport({ baseUrl: grpcUrl, interceptors: [bearerInterceptor(token)] });

// Issue 36 bullet 3 over the wire, with the shipped server's own background loop: an operator
// plans drills, a viewer reads them (and the schedules overview names them) but may not change
// or run one; a planned drill fires by itself and proves the newest backup.
describe.each(DIALECTS)('RestoreDrillPlanService on %s', (dialect) => {
  let s: BackupServer;
  let viewer: ReturnType<typeof createClient<typeof RestoreDrillPlanService>>;
  let operator: ReturnType<typeof createClient<typeof RestoreDrillPlanService>>;
  let drills: ReturnType<typeof createClient<typeof RestoreDrillService>>;
  let insight: ReturnType<typeof createClient<typeof BackupInsightService>>;
  beforeAll(async () => {
    s = await startBackupServer(dialect, { STORE_SCHEDULER_MIN_INTERVAL: '1' });
    const issue = async (role: 'viewer' | 'operator') =>
      (await s.t.server.tokens.issue({ tenant: 'default', roles: [role], name: `${role} bot` }))
        .token;
    const viewerTransport = transportOf(s.t.server.grpcUrl, await issue('viewer'));
    const operatorTransport = transportOf(s.t.server.grpcUrl, await issue('operator'));
    viewer = createClient(RestoreDrillPlanService, viewerTransport);
    operator = createClient(RestoreDrillPlanService, operatorTransport);
    drills = createClient(RestoreDrillService, viewerTransport);
    insight = createClient(BackupInsightService, viewerTransport);
  });
  afterAll(async () => {
    await s?.t.dispose();
  });

  async function settled(operationId: string) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { status } = await drills.getRestoreDrillStatus({ operationId });
      if (status && status.state >= StoreOperationState.SUCCEEDED) return status;
      if (Date.now() > deadline) throw new Error(`drill ${operationId} did not finish`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('a planned drill fires by itself; the overview names the plan and its next run; a viewer only reads', async () => {
    await s.put('planned', { a: 1, b: 2, c: 3 });
    const captured = await s.backup.startBackup({ name: 'full', scope: { treeId: 'planned' } });
    const status = await s.finish(captured.operationId);
    if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no capture');
    const backupId = status.result.value.backupId;

    const settings = {
      scope: { treeId: 'planned' },
      name: 'every second',
      cadence: { interval: durationFromMs(1000) },
      choice: DrillPlanBackupChoice.NEWEST,
    };
    expect(await codeOf(viewer.setRestoreDrillPlan(settings))).toBe(Code.PermissionDenied);
    const plan = await operator.setRestoreDrillPlan(settings);
    expect(plan).toMatchObject({ name: 'every second', choice: DrillPlanBackupChoice.NEWEST });
    expect(plan.nextRunAt).toBeDefined();

    const overview = await insight.listSchedules({ scope: { treeId: 'planned' } });
    expect(overview.schedules[0]?.drillPlans).toMatchObject([
      { name: 'every second', choice: 'the newest backup', paused: false },
    ]);
    expect(overview.schedules[0]?.drillPlans[0]?.nextRunAt).toBeDefined();
    // The tenant-wide overview lists the scope for its plan alone (it has no backup schedule).
    const all = await insight.listSchedules({});
    expect(all.schedules.map((v) => v.scope?.treeId)).toContain('planned');

    // The server's background fires it: wait for its run to show.
    const deadline = Date.now() + 15_000;
    let read = await viewer.getRestoreDrillPlan({
      scope: { treeId: 'planned' },
      name: 'every second',
    });
    while (!read.lastRun?.operationId) {
      if (Date.now() > deadline) throw new Error('the planned drill did not fire');
      await new Promise((r) => setTimeout(r, 50));
      read = await viewer.getRestoreDrillPlan({
        scope: { treeId: 'planned' },
        name: 'every second',
      });
    }
    const operationId = read.lastRun.operationId;
    // Paused, so later runs leave this one the last.
    await operator.setRestoreDrillPlan({ ...settings, paused: true });
    await settled(operationId);
    const result = await drills.getRestoreDrillResult({ operationId });
    expect(result.outcome).toBe(RestoreDrillOutcome.PROVEN);
    expect(result.backups.map((b) => [b.backupId, b.startedBy])).toEqual([
      [backupId, 'drill-plan:every second'],
    ]);
    const after = await viewer.getRestoreDrillPlan({
      scope: { treeId: 'planned' },
      name: 'every second',
    });
    expect(after.lastRun).toMatchObject({ backupId, outcome: DrillPlanRunOutcome.PROVEN });
    expect(after.paused).toBe(true);
    expect(after.nextRunAt).toBeUndefined();

    // Run now (operator only), as the caller.
    const ref = { scope: { treeId: 'planned' }, name: 'every second' };
    expect(await codeOf(viewer.runRestoreDrillPlanNow(ref))).toBe(Code.PermissionDenied);
    const now = await operator.runRestoreDrillPlanNow(ref);
    await settled(now.operationId);
    const ran = await viewer.getRestoreDrillPlan(ref);
    expect(ran.lastRun).toMatchObject({
      operationId: now.operationId,
      outcome: DrillPlanRunOutcome.PROVEN,
    });
    // The caller's subject (the operator's token), not the plan's name.
    expect(ran.lastRun?.startedBy).toMatch(/^token:/);

    // Delete removes the plan only; its drills stay in the history.
    expect(await codeOf(viewer.deleteRestoreDrillPlan(ref))).toBe(Code.PermissionDenied);
    const history = await drills.listRestoreDrills({ scope: { treeId: 'planned' } });
    const deleted = await operator.deleteRestoreDrillPlan(ref);
    const planned = history.drills.filter((d) => d.startedBy === 'drill-plan:every second');
    expect(deleted.drillsKept).toBe(BigInt(planned.length));
    expect(deleted.removed).toBe(
      `drill plan every second of planned; the ${planned.length === 1 ? '1 drill' : `${planned.length} drills`} it ran stay in the drill history`,
    );
    expect(await codeOf(viewer.getRestoreDrillPlan(ref))).toBe(Code.NotFound);
    expect((await drills.listRestoreDrills({ scope: { treeId: 'planned' } })).drills).toHaveLength(
      history.drills.length,
    );
  });

  it('refuses bad plans with InvalidArgument, unknown ones with NotFound, nothing to drill with FailedPrecondition', async () => {
    await s.put('empty-plan', { a: 1 });
    const base = {
      scope: { treeId: 'empty-plan' },
      name: 'p',
      choice: DrillPlanBackupChoice.NEWEST,
    };
    expect(await codeOf(operator.setRestoreDrillPlan({ ...base, choice: 0 }))).toBe(
      Code.InvalidArgument,
    );
    expect(
      await codeOf(
        operator.setRestoreDrillPlan({
          ...base,
          cadence: { interval: durationFromMs(3_600_000), timeOfDay: '7pm', timeZone: 'UTC' },
        }),
      ),
    ).toBe(Code.InvalidArgument);
    expect(
      await codeOf(
        operator.setRestoreDrillPlan({
          ...base,
          choice: DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW,
        }),
      ),
    ).toBe(Code.InvalidArgument);
    expect(
      await codeOf(operator.setRestoreDrillPlan({ ...base, scope: { treeId: 'no-such-tree' } })),
    ).toBe(Code.NotFound);
    expect(await codeOf(viewer.listRestoreDrillPlans({ pageToken: 'zz' }))).toBe(
      Code.InvalidArgument,
    );
    await operator.setRestoreDrillPlan(base);
    expect(await codeOf(operator.runRestoreDrillPlanNow(base))).toBe(Code.FailedPrecondition);
    expect(await codeOf(operator.deleteRestoreDrillPlan({ ...base, name: 'other' }))).toBe(
      Code.NotFound,
    );
    const listed = await viewer.listRestoreDrillPlans({ scope: { treeId: 'empty-plan' } });
    expect(listed.plans.map((p) => [p.name, p.cadence, p.nextRunAt])).toEqual([
      ['p', undefined, undefined],
    ]);
  });
});
