import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { storagePerTest } from '../../../../test/support/storage-per-test.js';
import { DIALECTS } from '../../../../test/support/test-storage.js';
import { getDrillPlan } from '../../../storage/backup/drills/drill-plan-store.js';
import { openStorage, type Storage } from '../../../storage/database.js';
import { TreeDataEngine } from '../../data/tree-data-engine.js';
import { OperationRunner } from '../../operations/operation-runner.js';
import type { OperationRecord } from '../../operations/types.js';
import { BackupEngine } from '../backup-engine.js';
import type { CaptureResult } from '../backup-types.js';
import { pickBackup } from './drill-plan-pick.js';
import type { DrillPlanInput } from './drill-plans.js';
import type { RestoreDrillResult } from './drill-types.js';

const TENANT = 'acme';
const WHO = { tenant: TENANT, createdBy: 'plan-tester' };
const HOUR = 3_600_000;
const MINUTE = 60_000;
/** 2026-11-20 00:00 UTC: a fixed start, so anchored runs fall on known instants. */
const T0 = Date.UTC(2026, 10, 20, 0, 0, 0);

// Issue 36 bullet 3 (drill plans) and bullet 6's "two replicas never run the same planned drill
// twice", on the engine with a clock the test moves.
describe.each(DIALECTS)('restore drill plans on %s', (dialect) => {
  const freshStorage = storagePerTest(dialect);
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function replica(storage: Storage, artifacts: string, clock: () => number) {
    const runner = new OperationRunner({ storage, pollMs: 20 });
    const engine = new BackupEngine({
      storage,
      runner,
      artifacts,
      schedulerMinIntervalMs: MINUTE,
      healthMonitoring: false,
      clock,
    });
    runner.start();
    cleanups.push(() => runner.stop({ graceMs: 0 }));
    return { runner, engine };
  }

  async function setUp() {
    const storage = await freshStorage();
    let now = T0;
    const clock = () => now;
    const artifacts = join(storage.location.dataDir, 'artifacts');
    const { runner, engine } = await replica(storage, artifacts, clock);
    const data = new TreeDataEngine({ storage });
    const settle = async (op: OperationRecord) => {
      for (;;) {
        const seen = await runner.get(TENANT, op.id);
        if (seen?.finishedAt) return seen;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const capture = async (treeId: string, base?: CaptureResult) => {
      const op = await engine.startCapture(
        WHO,
        {
          name: `${treeId}@${(now - T0) / MINUTE}min`,
          scope: { treeId },
          pageSize: 0,
          labels: {},
          ...(base && { baseBackupId: base.backupId }),
        },
        base !== undefined,
      );
      const done = await settle(op);
      if (done.state !== 'SUCCEEDED') throw new Error(`${done.state}: ${done.error?.message}`);
      return done.result as CaptureResult;
    };
    const drillsStarted = async () =>
      storage.db
        .selectFrom('operations')
        .select(['id', 'request_json', 'created_by'])
        .where('kind', '=', 'RESTORE_DRILL')
        .orderBy('created_at')
        .execute();
    const plan = (overrides: Partial<DrillPlanInput> = {}): DrillPlanInput => ({
      scope: { treeId: 'inv' },
      name: 'nightly',
      cadence: { intervalMs: 24 * HOUR, timeOfDay: '02:00', timeZone: 'Europe/Berlin' },
      choice: 'NEWEST',
      windowMs: 0,
      maxEntriesPerSecond: 0,
      paused: false,
      ...overrides,
    });
    await data.putEntry(TENANT, 'inv', 'a', '1');
    await data.putEntry(TENANT, 'inv', 'b', '2');
    return {
      storage,
      artifacts,
      clock,
      setNow: (at: number) => {
        now = at;
      },
      runner,
      engine,
      data,
      settle,
      capture,
      drillsStarted,
      plan,
    };
  }

  it('sets, reads, lists and deletes plans; the next run follows the anchored cadence', async () => {
    const { engine, plan, setNow } = await setUp();
    setNow(T0 + 5 * MINUTE);
    const set = await engine.drillPlans.set(TENANT, plan());
    // 02:00 in Berlin (UTC+1 in November) is 01:00 UTC, the first slot after now.
    expect(set).toMatchObject({
      name: 'nightly',
      treeName: 'inv',
      keyPrefix: '',
      choice: 'NEWEST',
      intervalMs: 24 * HOUR,
      anchor: { minuteOfDay: 120, timeZone: 'Europe/Berlin' },
      nextRunAt: T0 + HOUR,
      paused: false,
      lastRunView: null,
    });
    const onDemand = await engine.drillPlans.set(
      TENANT,
      plan({ name: 'by hand', cadence: undefined, choice: 'EACH_NEW_FULL' }),
    );
    expect(onDemand.nextRunAt).toBeNull();
    const listed = await engine.drillPlans.list(TENANT, { pageSize: 1, pageToken: '' });
    expect(listed.plans.map((p) => p.name)).toEqual(['by hand']);
    const rest = await engine.drillPlans.list(TENANT, {
      pageSize: 1,
      pageToken: listed.nextPageToken,
    });
    expect(rest.plans.map((p) => p.name)).toEqual(['nightly']);
    expect(rest.nextPageToken).toBe('');

    // Same cadence: the next run stays; paused: none; resumed: from now.
    setNow(T0 + 10 * MINUTE);
    const same = await engine.drillPlans.set(TENANT, plan({ maxEntriesPerSecond: 500 }));
    expect(same).toMatchObject({ nextRunAt: T0 + HOUR, maxEntriesPerSecond: 500 });
    expect((await engine.drillPlans.set(TENANT, plan({ paused: true }))).nextRunAt).toBeNull();
    setNow(T0 + 2 * HOUR);
    expect((await engine.drillPlans.set(TENANT, plan())).nextRunAt).toBe(T0 + 25 * HOUR);

    const deleted = await engine.drillPlans.delete(TENANT, {
      scope: { treeId: 'inv' },
      name: 'nightly',
    });
    expect(deleted).toEqual({
      removed: 'drill plan nightly of inv; the 0 drills it ran stay in the drill history',
      drillsKept: 0,
    });
    await expect(
      engine.drillPlans.get(TENANT, { scope: { treeId: 'inv' }, name: 'nightly' }),
    ).rejects.toMatchObject({ code: 'not_found', message: 'no drill plan nightly on inv' });
  });

  it('refuses bad plans with the field that is wrong', async () => {
    const { engine, plan } = await setUp();
    const refused = (input: DrillPlanInput) => engine.drillPlans.set(TENANT, input);
    const cases: Array<[DrillPlanInput, string, string]> = [
      [plan({ name: '' }), 'invalid_argument', 'name'],
      [plan({ name: ' padded ' }), 'invalid_argument', 'name'],
      [plan({ choice: undefined }), 'invalid_argument', 'choice'],
      [
        plan({ cadence: { intervalMs: 0, timeOfDay: '', timeZone: '' } }),
        'invalid_argument',
        'cadence.interval',
      ],
      [
        plan({ cadence: { intervalMs: HOUR, timeOfDay: '25:00', timeZone: 'UTC' } }),
        'invalid_argument',
        'cadence.time_of_day',
      ],
      [
        plan({ cadence: { intervalMs: HOUR, timeOfDay: '02:00', timeZone: 'Mars/Base' } }),
        'invalid_argument',
        'cadence.time_zone',
      ],
      [
        plan({ cadence: { intervalMs: HOUR, timeOfDay: '02:00', timeZone: '' } }),
        'invalid_argument',
        'cadence',
      ],
      [plan({ choice: 'RANDOM_WITHIN_WINDOW', windowMs: 0 }), 'invalid_argument', 'window'],
      [plan({ maxEntriesPerSecond: -1 }), 'invalid_argument', 'max_entries_per_second'],
      [plan({ scope: { treeId: 'nowhere' } }), 'not_found', ''],
    ];
    for (const [input, code, field] of cases) {
      await expect(refused(input), JSON.stringify(input)).rejects.toMatchObject({
        code,
        ...(field !== '' && { field }),
      });
    }
    // A cadence under the scheduler minimum is clamped up to it, as schedules are.
    const fast = await refused(
      plan({ cadence: { intervalMs: 1000, timeOfDay: '', timeZone: '' } }),
    );
    expect(fast.intervalMs).toBe(MINUTE);
  });

  it('a due plan fires exactly once with two replicas on one database', async () => {
    const s = await setUp();
    await s.capture('inv');
    await s.engine.drillPlans.set(
      TENANT,
      s.plan({ cadence: { intervalMs: HOUR, timeOfDay: '', timeZone: '' } }),
    );
    const other = await openStorage(s.storage.location);
    cleanups.push(() => other.close());
    const second = await replica(other, s.artifacts, s.clock);
    s.setNow(T0 + HOUR + 1);
    await Promise.all([s.engine.tick(), second.engine.tick(), s.engine.tick()]);
    const started = await s.drillsStarted();
    expect(started).toHaveLength(1);
    expect(started[0]!.created_by).toBe('drill-plan:nightly');
    const stored = await getDrillPlan(s.storage, {
      tenant: TENANT,
      treeName: 'inv',
      keyPrefix: '',
      name: 'nightly',
    });
    expect(stored?.nextRunAt).toBe(T0 + 2 * HOUR + 1);
    // Ticks before the next run start nothing more.
    await Promise.all([s.engine.tick(), second.engine.tick()]);
    expect(await s.drillsStarted()).toHaveLength(1);
    const done = await s.settle({ id: started[0]!.id } as OperationRecord);
    expect((done.result as RestoreDrillResult).outcome).toBe('PROVEN');
    const view = await s.engine.drillPlans.get(TENANT, {
      scope: { treeId: 'inv' },
      name: 'nightly',
    });
    expect(view.lastRunView).toMatchObject({ outcome: 'PROVEN', operationId: started[0]!.id });
  });

  it('NEWEST drills the newest backup; a run with none is skipped with the reason', async () => {
    const s = await setUp();
    await s.engine.drillPlans.set(
      TENANT,
      s.plan({ cadence: { intervalMs: HOUR, timeOfDay: '', timeZone: '' } }),
    );
    s.setNow(T0 + HOUR);
    await s.engine.tick();
    expect(await s.drillsStarted()).toHaveLength(0);
    const skipped = await s.engine.drillPlans.get(TENANT, {
      scope: { treeId: 'inv' },
      name: 'nightly',
    });
    expect(skipped.lastRunView).toMatchObject({
      outcome: 'SKIPPED',
      reason: 'inv has no backup yet',
      operationId: null,
      at: T0 + HOUR,
    });

    const full = await s.capture('inv');
    s.setNow(T0 + HOUR + 10 * MINUTE);
    await s.data.putEntry(TENANT, 'inv', 'c', '3');
    const incremental = await s.capture('inv', full);
    s.setNow(T0 + 2 * HOUR);
    await s.engine.tick();
    const [started] = await s.drillsStarted();
    expect(JSON.parse(started!.request_json)).toEqual({ backupId: incremental.backupId });
    expect(incremental.backupId).not.toBe(full.backupId);
  });

  it('RANDOM_WITHIN_WINDOW draws, seeded, only among the backups within the window', async () => {
    const s = await setUp();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      s.setNow(T0 + i * HOUR);
      ids.push((await s.capture('inv')).backupId);
    }
    await s.engine.drillPlans.set(
      TENANT,
      s.plan({ choice: 'RANDOM_WITHIN_WINDOW', windowMs: 90 * MINUTE, cadence: undefined }),
    );
    const stored = await getDrillPlan(s.storage, {
      tenant: TENANT,
      treeName: 'inv',
      keyPrefix: '',
      name: 'nightly',
    });
    // At T0 + 3 h a 90 min window holds the captures of T0 + 2 h and T0 + 3 h only.
    const picked = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const pick = await pickBackup(s.storage, stored!, T0 + 3 * HOUR + i);
      expect(pick.reason).toMatch(
        /^drawn at random \(seed \d+\) among 2 backups of the last 90 min/,
      );
      picked.add(pick.backup!.id);
      // The same run time draws the same backup.
      expect((await pickBackup(s.storage, stored!, T0 + 3 * HOUR + i)).backup!.id).toBe(
        pick.backup!.id,
      );
    }
    expect([...picked].sort()).toEqual([ids[2], ids[3]].sort());

    // Run now, as the caller, at a time whose window holds nothing: refused in words.
    s.setNow(T0 + 10 * HOUR);
    await expect(
      s.engine.drillPlans.runNow(WHO, { scope: { treeId: 'inv' }, name: 'nightly' }),
    ).rejects.toMatchObject({
      code: 'failed_precondition',
      message: 'nothing to drill: no backup of inv within the last 90 min',
    });
    s.setNow(T0 + 3 * HOUR + 30 * MINUTE);
    const op = await s.engine.drillPlans.runNow(WHO, { scope: { treeId: 'inv' }, name: 'nightly' });
    expect(op.createdBy).toBe('plan-tester');
    expect([ids[2], ids[3]]).toContain(op.targetId);
  });

  it('EACH_NEW_FULL drills each new full once and skips until a newer one exists', async () => {
    const s = await setUp();
    const first = await s.capture('inv');
    await s.engine.drillPlans.set(
      TENANT,
      s.plan({
        choice: 'EACH_NEW_FULL',
        cadence: { intervalMs: HOUR, timeOfDay: '', timeZone: '' },
      }),
    );
    s.setNow(T0 + HOUR);
    await s.engine.tick();
    s.setNow(T0 + HOUR + 20 * MINUTE);
    // An incremental is not a new full.
    await s.data.putEntry(TENANT, 'inv', 'c', '3');
    await s.capture('inv', first);
    s.setNow(T0 + 2 * HOUR);
    await s.engine.tick();
    let started = await s.drillsStarted();
    expect(started.map((r) => JSON.parse(r.request_json) as unknown)).toEqual([
      { backupId: first.backupId },
    ]);
    const view = await s.engine.drillPlans.get(TENANT, {
      scope: { treeId: 'inv' },
      name: 'nightly',
    });
    expect(view.lastRunView).toMatchObject({
      outcome: 'SKIPPED',
      reason: `no full backup of inv newer than ${first.entry.manifest.name}, drilled last`,
    });

    s.setNow(T0 + 2 * HOUR + 30 * MINUTE);
    const second = await s.capture('inv');
    s.setNow(T0 + 3 * HOUR);
    await s.engine.tick();
    s.setNow(T0 + 4 * HOUR);
    await s.engine.tick();
    started = await s.drillsStarted();
    expect(started.map((r) => JSON.parse(r.request_json) as unknown)).toEqual([
      { backupId: first.backupId },
      { backupId: second.backupId },
    ]);
  });

  it('a plan whose previous drill still runs skips its run; a paused plan does not fire', async () => {
    const s = await setUp();
    await s.capture('inv');
    await s.engine.drillPlans.set(
      TENANT,
      s.plan({
        cadence: { intervalMs: HOUR, timeOfDay: '', timeZone: '' },
        maxEntriesPerSecond: 1,
      }),
    );
    // Throttled to one entry a second: the first drill is still running at the next run.
    s.setNow(T0 + HOUR);
    await s.engine.tick();
    s.setNow(T0 + 2 * HOUR);
    await s.engine.tick();
    expect(await s.drillsStarted()).toHaveLength(1);
    const view = await s.engine.drillPlans.get(TENANT, {
      scope: { treeId: 'inv' },
      name: 'nightly',
    });
    expect(view.lastRunView).toMatchObject({
      outcome: 'SKIPPED',
      reason: 'the previous drill of this plan was still running',
    });

    await s.engine.drillPlans.set(
      TENANT,
      s.plan({ cadence: { intervalMs: HOUR, timeOfDay: '', timeZone: '' }, paused: true }),
    );
    s.setNow(T0 + 10 * HOUR);
    await s.engine.tick();
    expect(await s.drillsStarted()).toHaveLength(1);
  });
});
