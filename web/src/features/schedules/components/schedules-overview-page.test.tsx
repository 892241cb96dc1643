import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { ConnectRouter } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupInsightService,
  BackupScopeRunOutcome,
  durationFromMs,
  IdentityService,
  ScheduleOverviewSchema,
  StoreBackupApiOperation,
  StoreOperationPageSchema,
  TreeDataService,
  type ScheduleExtrasRequest,
} from '@store/contract';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { whoAmI } from '../../../testing/fixtures';
import { createTestApp, renderApp, testSession } from '../../../testing/render-app';

const HOUR = 3_600_000;

/** Two scopes of one tree: an anchored one whose last incremental had no change, and a plain one. */
function overview(now: number) {
  const anchored = create(ScheduleOverviewSchema, {
    scope: { treeId: 'orders' },
    full: { interval: durationFromMs(24 * HOUR), nextRunTime: timestampFromMs(now + 3 * HOUR) },
    incremental: { interval: durationFromMs(6 * HOUR), nextRunTime: timestampFromMs(now + HOUR) },
    anchor: { timeOfDay: '02:00', timeZone: 'Europe/Berlin' },
    nameTemplate: '{scope} {kind} {YYYY}-{MM}-{DD} {HH}:{mm} {zone}',
    defaultNameTemplate: true,
    nextRuns: [1, 3, 3, 7, 13].map((h, i) => ({
      runTime: timestampFromMs(now + h * HOUR),
      incremental: i !== 1,
      backupName: `orders run ${i}`,
    })),
    lastRun: {
      runTime: timestampFromMs(now - 5 * HOUR),
      incremental: true,
      outcome: BackupScopeRunOutcome.SKIPPED,
      reason: 'no change since orders full 2026-06-01 02:00 Europe/Berlin',
    },
    chainDepth: 3,
  });
  const prefixed = create(ScheduleOverviewSchema, {
    scope: { treeId: 'orders', keyPrefix: 'eu/' },
    full: { interval: durationFromMs(2 * HOUR), nextRunTime: timestampFromMs(now + 2 * HOUR) },
    nameTemplate: 'x',
    nextRuns: [{ runTime: timestampFromMs(now + 2 * HOUR), backupName: 'orders eu/ full' }],
    chainDepth: 1,
  });
  return [anchored, prefixed];
}

function server() {
  const configured: ScheduleExtrasRequest[] = [];
  const routes = (router: ConnectRouter) => {
    router.service(IdentityService, { whoAmI: () => whoAmI() });
    router.service(TreeDataService, { listTrees: () => ({ trees: [{ treeId: 'orders' }] }) });
    router.service(BackupControlService, {
      listBackupOperations: () => create(StoreOperationPageSchema, {}),
      probeCapabilities: (req) => ({
        treeId: req.scope?.treeId ?? '',
        allowedOperations: [StoreBackupApiOperation.SCHEDULE_BACKUP],
      }),
      getScopeStatus: (req) => ({ found: true, scope: req.scope, chainDepth: 0 }),
    });
    router.service(BackupInsightService, {
      listSchedules: (req) => {
        const all = overview(Date.now());
        if (!req.scope) return { schedules: all };
        const last = configured.at(-1);
        return {
          schedules: last
            ? [{ ...all[0]!, anchor: last.anchor, nameTemplate: last.nameTemplate }]
            : [],
        };
      },
      configureScheduleExtras: (req) => {
        configured.push(req);
        return { ...overview(Date.now())[0]!, anchor: req.anchor };
      },
    });
  };
  return { configured, app: createTestApp(routes, { session: testSession }) };
}

describe('schedule overview page', () => {
  it('lists every scope with its cadence in words, next run, upcoming runs and last outcome', async () => {
    renderApp(server().app, '/schedules/overview');
    const link = await screen.findByRole('link', { name: 'Edit the schedules of orders' });
    expect(link.getAttribute('href')).toBe('/schedules?tree=orders');
    const row = link.closest('tr')!;
    const cells = within(row);
    expect(cells.getAllByText('every 24 h at 02:00 Europe/Berlin')).toHaveLength(1);
    expect(cells.getByText('every 6 h at 02:00 Europe/Berlin')).toBeTruthy();
    // The next full and the next incremental, each with its time in the schedule's zone, named.
    const nextFull = cells.getByText('Next full').nextElementSibling!;
    expect(nextFull.textContent).toMatch(/^in 3 h .*\d\d:\d\d Europe\/Berlin$/);
    const nextIncremental = cells.getByText('Next incremental').nextElementSibling!;
    expect(nextIncremental.textContent).toMatch(/^in 1 h .*\d\d:\d\d Europe\/Berlin$/);
    expect(
      cells.getByText(
        'Incremental run skipped: no change since orders full 2026-06-01 02:00 Europe/Berlin',
      ),
    ).toBeTruthy();
    const upcoming = cells.getByText('Next 5 runs');
    fireEvent.click(upcoming);
    expect(within(upcoming.closest('details')!).getAllByRole('listitem')).toHaveLength(5);
    expect(cells.getByText('as “orders run 1”')).toBeTruthy();

    const prefixed = screen.getByRole('link', {
      name: 'Edit the schedules of orders, key prefix eu/',
    });
    const other = within(prefixed.closest('tr')!);
    expect(other.getByText('every 2 h')).toBeTruthy();
    expect(other.getByText('Not scheduled')).toBeTruthy();
    expect(other.getByText('No run yet')).toBeTruthy();
  });

  it("switches every time of the overview between each schedule's zone and the browser's, named", async () => {
    // The browser's zone: UTC, whatever the machine's (Node follows TZ at once).
    vi.stubEnv('TZ', 'UTC');
    sessionStorage.clear();
    try {
      renderApp(server().app, '/schedules/overview');
      const link = await screen.findByRole('link', { name: 'Edit the schedules of orders' });
      const row = within(link.closest('tr')!);
      const switcher = screen.getByRole('group', { name: 'Show times in' });
      expect(
        (within(switcher).getByLabelText("each schedule's zone") as HTMLInputElement).checked,
      ).toBe(true);
      // A scope without a time of day names its backups in UTC: its times say UTC.
      const prefixed = within(
        screen
          .getByRole('link', { name: 'Edit the schedules of orders, key prefix eu/' })
          .closest('tr')!,
      );
      expect(prefixed.getByText('Next full').nextElementSibling!.textContent).toMatch(/ UTC$/);

      fireEvent.click(within(switcher).getByLabelText("this browser's zone (UTC)"));
      // 02:00 in Berlin is 01:00 UTC in winter, 00:00 in summer.
      expect(row.getByText(/^every 24 h at 0[01]:00 UTC$/)).toBeTruthy();
      expect(row.getByText('Next full').nextElementSibling!.textContent).toMatch(/ UTC$/);
      expect(row.getByText('Next incremental').nextElementSibling!.textContent).toMatch(/ UTC$/);
      expect(row.getByText(/^every 6 h at 0[01]:00 UTC$/)).toBeTruthy();
      // Names are what the backups will be called; they keep the zone they are written in.
      fireEvent.click(row.getByText('Next 5 runs'));
      expect(row.getByText('as “orders run 1”')).toBeTruthy();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("a scope's form sends the anchor and name template and says what was saved", async () => {
    const { app, configured } = server();
    renderApp(app, '/schedules?tree=orders');
    const form = await screen.findByRole('form', { name: 'Schedule' });
    fireEvent.click(within(form).getByLabelText('Start at a time of day'));
    fireEvent.change(within(form).getByLabelText('Time of day'), { target: { value: '02:00' } });
    fireEvent.change(within(form).getByLabelText('Time zone'), {
      target: { value: 'Europe/Berlin' },
    });
    fireEvent.change(within(form).getByLabelText('Backup name template'), {
      target: { value: 'nightly {tree} {YYYY}-{MM}-{DD}' },
    });
    fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    const notice = await screen.findByText(/^Saved\./, { selector: '[role="status"]' });
    expect(notice.textContent).toContain('Full: every 24 h at 02:00 Europe/Berlin');
    expect(configured).toHaveLength(1);
    expect(configured[0]).toMatchObject({
      scope: { treeId: 'orders' },
      anchor: { timeOfDay: '02:00', timeZone: 'Europe/Berlin' },
      nameTemplate: 'nightly {tree} {YYYY}-{MM}-{DD}',
      captureUnchangedIncrementals: false,
    });
  });

  it('refuses a zone the browser does not know before sending', async () => {
    const { app, configured } = server();
    renderApp(app, '/schedules?tree=orders');
    const form = await screen.findByRole('form', { name: 'Schedule' });
    fireEvent.click(within(form).getByLabelText('Start at a time of day'));
    fireEvent.change(within(form).getByLabelText('Time zone'), { target: { value: 'Mars/Base' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save schedule' }));
    expect(
      await within(form).findByText('Mars/Base is not a time zone this browser knows.'),
    ).toBeTruthy();
    expect(configured).toEqual([]);
  });
});
