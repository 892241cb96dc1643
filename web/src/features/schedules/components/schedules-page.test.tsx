import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupInsightService,
  BackupScopeRunOutcome,
  durationFromMs,
  durationToMs,
  IdentityService,
  StoreBackupApiOperation,
  StoreOperationPageSchema,
  TreeDataService,
} from '@store/contract';
import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const MIN_MS = 60_000;

/** A backup service that registers schedules like the real one: clamped up to a minimum. */
/** 02:00 in Tokyo (no daylight saving time) is 17:00 UTC the day before. */
const TOKYO_2AM = Date.UTC(2030, 0, 1, 17, 0);

function server(options: { knownTree?: string } = {}) {
  // Every call in order, to see what one Save sends.
  const calls: string[] = [];
  let anchor: { timeOfDay: string; timeZone: string } | undefined;
  // Keyed by scope and kind, as the real server keys schedules (tree + key prefix).
  const registered = new Map<string, number>();
  const keyOf = (scope: { treeId: string; keyPrefix?: string } | undefined, kind: string) =>
    `${scope?.treeId ?? ''}|${scope?.keyPrefix ?? ''}|${kind}`;
  const requests: { incremental: boolean; ms: number }[] = [];
  const scopes: { rpc: string; treeId?: string; keyPrefix?: string }[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(TreeDataService, {
      listTrees: () => ({ trees: [{ treeId: 'orders' }, { treeId: 'users' }] }),
    });
    router.service(BackupControlService, {
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
      probeCapabilities: (req) => ({
        treeId: req.scope?.treeId ?? '',
        allowedOperations: [
          StoreBackupApiOperation.SCHEDULE_BACKUP,
          StoreBackupApiOperation.CANCEL_SCHEDULE,
        ],
      }),
      getScopeStatus: (req) => {
        scopes.push({ rpc: 'status', treeId: req.scope?.treeId, keyPrefix: req.scope?.keyPrefix });
        if (req.scope?.treeId !== (options.knownTree ?? 'orders')) return { found: false };
        const full = registered.get(keyOf(req.scope, 'full'));
        const incremental = registered.get(keyOf(req.scope, 'incremental'));
        return {
          found: true,
          scope: req.scope,
          fullScheduleRegistered: full !== undefined,
          runtimeFullBackupInterval: full === undefined ? undefined : durationFromMs(full),
          incrementalScheduleRegistered: incremental !== undefined,
          runtimeIncrementalBackupInterval:
            incremental === undefined ? undefined : durationFromMs(incremental),
          chainDepth: 2,
          lastRunOutcome: BackupScopeRunOutcome.SKIPPED,
        };
      },
      scheduleBackup: (req) => {
        calls.push(`schedule ${req.incremental ? 'incremental' : 'full'}`);
        const ms = durationToMs(req.interval);
        requests.push({ incremental: req.incremental, ms });
        scopes.push({
          rpc: 'schedule',
          treeId: req.scope?.treeId,
          keyPrefix: req.scope?.keyPrefix,
        });
        const effective = Math.max(ms, MIN_MS);
        registered.set(keyOf(req.scope, req.incremental ? 'incremental' : 'full'), effective);
        return { scheduled: true, effectiveInterval: durationFromMs(effective) };
      },
      cancelSchedule: (req) => {
        scopes.push({ rpc: 'cancel', treeId: req.scope?.treeId, keyPrefix: req.scope?.keyPrefix });
        registered.delete(keyOf(req.scope, req.incremental ? 'incremental' : 'full'));
        return {};
      },
    });
    // The scope's settings and next runs, as the real server derives them from what is stored:
    // the full run at the anchor (02:00 Tokyo), the incremental an hour later.
    const view = (scope: { treeId: string; keyPrefix?: string } | undefined) => {
      const cadence = (kind: string, at: number) => {
        const ms = registered.get(keyOf(scope, kind));
        return ms === undefined
          ? undefined
          : { interval: durationFromMs(ms), nextRunTime: timestampFromMs(at) };
      };
      const full = cadence('full', TOKYO_2AM);
      const incremental = cadence('incremental', TOKYO_2AM + 3_600_000);
      return {
        scope,
        full,
        incremental,
        anchor,
        nameTemplate: '{scope} {kind}',
        defaultNameTemplate: true,
        nextRuns: [
          ...(full ? [{ runTime: full.nextRunTime, backupName: 'orders full' }] : []),
          ...(incremental
            ? [
                {
                  runTime: incremental.nextRunTime,
                  incremental: true,
                  backupName: 'orders incremental',
                },
              ]
            : []),
        ],
      };
    };
    router.service(BackupInsightService, {
      listSchedules: (req) => ({ schedules: [view(req.scope)] }),
      configureScheduleExtras: (req) => {
        calls.push(
          `configure ${req.anchor ? `${req.anchor.timeOfDay} ${req.anchor.timeZone}` : 'unanchored'}`,
        );
        anchor = req.anchor && { timeOfDay: req.anchor.timeOfDay, timeZone: req.anchor.timeZone };
        return view(req.scope);
      },
    });
  };
  return { requests, scopes, calls, app: createTestApp(routes, { session: testSession }) };
}

beforeEach(() => {
  // The browser's zone in these tests: UTC, whatever the machine's (Node follows TZ at once).
  vi.stubEnv('TZ', 'UTC');
  sessionStorage.clear();
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('schedules page', () => {
  it('checks the interval before sending and says what the server clamped it to', async () => {
    const { app, requests } = server();
    renderApp(app, '/schedules?tree=orders');
    const form = await screen.findByRole('form', { name: 'Schedule' });
    const full = within(form).getByRole('group', { name: /^Full backups/ });
    fireEvent.click(within(full).getByLabelText('Schedule full backups'));
    const interval = within(full).getByLabelText('Full backup interval');

    fireEvent.change(interval, { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    expect(await within(full).findByText('The interval must be greater than zero.')).toBeTruthy();
    expect(interval.getAttribute('aria-invalid')).toBe('true');
    expect(requests).toEqual([]);

    fireEvent.change(interval, { target: { value: '10' } });
    fireEvent.change(within(full).getByLabelText('Unit'), { target: { value: 'seconds' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    const notice = await screen.findByText(/^Clamped/, { selector: '[role="status"]' });
    expect(notice.textContent).toMatch(/^Clamped to 1 minute: the requested 10 seconds/);
    expect(requests).toEqual([{ incremental: false, ms: 10_000 }]);
    // The status refreshes: the full schedule is now registered at the effective interval.
    expect(await screen.findAllByText(/every 1 minute/i)).not.toHaveLength(0);
  });

  it('a skipped last run points at the overview, where its reason is', async () => {
    const { app } = server();
    renderApp(app, '/schedules?tree=orders');
    const status = await screen.findByRole('region', { name: 'Scope status' });
    expect(within(status).getByText('Skipped')).toBeTruthy();
    const why = within(status).getByRole('link', { name: 'schedule overview' });
    expect(why.getAttribute('href')).toBe('/schedules/overview');
  });

  it('shows, registers and cancels the schedule of a scope with a key prefix, apart from the whole tree', async () => {
    const { app, scopes } = server();
    renderApp(app, '/schedules?tree=orders');
    const prefixForm = await screen.findByRole('form', { name: 'Scope key prefix' });
    fireEvent.change(within(prefixForm).getByLabelText('Key prefix'), {
      target: { value: 'eu/' },
    });
    fireEvent.click(within(prefixForm).getByRole('button', { name: 'Show scope' }));
    expect(await screen.findByText('Tree orders, key prefix eu/')).toBeTruthy();

    const form = await screen.findByRole('form', { name: 'Schedule' });
    const full = within(form).getByRole('group', { name: /^Full backups/ });
    fireEvent.click(within(full).getByLabelText('Schedule full backups'));
    fireEvent.change(within(full).getByLabelText('Full backup interval'), {
      target: { value: '2' },
    });
    fireEvent.change(within(full).getByLabelText('Unit'), { target: { value: 'hours' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findAllByText(/every 2 hours/i)).not.toHaveLength(0);
    expect(scopes.filter((s) => s.rpc === 'schedule')).toEqual([
      { rpc: 'schedule', treeId: 'orders', keyPrefix: 'eu/' },
    ]);

    fireEvent.click(await within(full).findByRole('button', { name: 'Cancel full schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the full schedule?' });
    expect(dialog.textContent).toContain('under key prefix eu/');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel schedule' }));
    expect(
      await within(form).findByRole('group', { name: /Full backups Not scheduled/ }),
    ).toBeTruthy();
    expect(scopes.filter((s) => s.rpc === 'cancel')).toEqual([
      { rpc: 'cancel', treeId: 'orders', keyPrefix: 'eu/' },
    ]);
    // The whole tree's status was asked without a prefix, the scope's with it.
    const asked = scopes.filter((s) => s.rpc === 'status').map((s) => s.keyPrefix ?? '');
    expect(new Set(asked)).toEqual(new Set(['', 'eu/']));
  });

  it('saves the time of day with both cadences in one action: one Save, the anchor stored before the cadences', async () => {
    const { app, calls } = server();
    renderApp(app, '/schedules?tree=orders');
    const form = await screen.findByRole('form', { name: 'Schedule' });
    const full = within(form).getByRole('group', { name: /^Full backups/ });
    fireEvent.click(within(full).getByLabelText('Schedule full backups'));
    const incremental = within(form).getByRole('group', { name: /^Incremental backups/ });
    fireEvent.click(within(incremental).getByLabelText('Schedule incremental backups'));
    fireEvent.click(within(form).getByLabelText('Start at a time of day'));
    fireEvent.change(within(form).getByLabelText('Time of day'), { target: { value: '02:00' } });
    fireEvent.change(within(form).getByLabelText('Time zone'), {
      target: { value: 'Asia/Tokyo' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));

    const saved = await screen.findByText(/^Saved\./, { selector: '[role="status"]' });
    expect(saved.textContent).toBe(
      'Saved. Full: every 24 h at 02:00 Asia/Tokyo; incremental: every 1 h at 02:00 Asia/Tokyo.',
    );
    // The anchor first, so each new cadence starts at its next 02:00 slot.
    expect(calls).toEqual(['configure 02:00 Asia/Tokyo', 'schedule full', 'schedule incremental']);
    expect(screen.queryByRole('button', { name: 'Save settings' })).toBeNull();
  });

  it("shows the next full and the next incremental run in one zone, named, and switches to the browser's", async () => {
    const { app } = server();
    renderApp(app, '/schedules?tree=orders');
    const form = await screen.findByRole('form', { name: 'Schedule' });
    fireEvent.click(within(form).getByLabelText('Schedule full backups'));
    fireEvent.click(within(form).getByLabelText('Schedule incremental backups'));
    fireEvent.click(within(form).getByLabelText('Start at a time of day'));
    fireEvent.change(within(form).getByLabelText('Time zone'), {
      target: { value: 'Asia/Tokyo' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    await screen.findByText(/^Saved\./, { selector: '[role="status"]' });

    const next = await screen.findByRole('region', { name: 'Next runs' });
    const nextFull = () => within(next).getByText('Next full').nextElementSibling?.textContent;
    const nextIncremental = () =>
      within(next).getByText('Next incremental').nextElementSibling?.textContent;
    // In the schedule's zone: 02:00 and 03:00 in Tokyo.
    expect(nextFull()).toMatch(/^in \d+ days .*02:00 Asia\/Tokyo$/);
    expect(nextIncremental()).toMatch(/03:00 Asia\/Tokyo$/);
    const switcher = screen.getByRole('group', { name: 'Show times in' });
    expect(within(switcher).getByLabelText("the schedule's zone (Asia/Tokyo)")).toBeTruthy();

    fireEvent.click(within(switcher).getByLabelText("this browser's zone (UTC)"));
    expect(nextFull()).toMatch(/17:00 UTC$/);
    expect(nextIncremental()).toMatch(/18:00 UTC$/);
    // One zone on the page: the status panel and the planned runs say UTC too, none Tokyo.
    const status = screen.getByRole('region', { name: 'Scope status' });
    expect(status.textContent).not.toContain('Asia/Tokyo');
    expect(next.textContent).not.toMatch(/\d\d:\d\d Asia\/Tokyo/);
    // The backup names stay as the server writes them; only times move zone.
    fireEvent.click(within(next).getByText('Next 2 runs'));
    expect(within(next).getByText('as “orders full”')).toBeTruthy();
  });

  it('says when the server does not know the tree', async () => {
    const { app } = server({ knownTree: 'users' });
    renderApp(app, '/schedules?tree=orders');
    expect(await screen.findByText('Unknown tree orders')).toBeTruthy();
  });
});
