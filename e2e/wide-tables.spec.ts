import { durationFromMs, StoreOperationState, type StoreOperationStatus } from '@store/contract';
import type { Page } from '@playwright/test';
import { OperationsTray } from './pages/operations-tray';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';
import { seedLargeTree } from './support/large-tree';

const WIDE = { width: 1440, height: 900 };

async function captured(api: StoreApi, treeId: string, name: string): Promise<void> {
  const handle = await api.backup.startBackup({ name, scope: { treeId } });
  const deadline = Date.now() + 30_000;
  let status: StoreOperationStatus | undefined;
  while (Date.now() < deadline) {
    status = (await api.backup.getBackupOperationStatus({ operationId: handle.operationId }))
      .status;
    if (status && status.state >= StoreOperationState.SUCCEEDED) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(status?.state).toBe(StoreOperationState.SUCCEEDED);
}

/** How far each table of the page is wider than its frame (0 when it fits). */
async function tableOverflows(page: Page): Promise<number[]> {
  return page
    .locator('.table-wrap')
    .evaluateAll((frames) => frames.map((f) => Math.max(0, f.scrollWidth - f.clientWidth)));
}

test('at 1440×900 with the tray docked, the operations, schedule overview and catalog tables fit their frames', async ({
  page,
  tenant,
}) => {
  test.setTimeout(120_000);
  const api = tenant.api;
  await api.data.putEntry({ treeId: 'customers', key: 'c1', valueJson: '{"n":1}' });
  await captured(api, 'customers', 'customers full baseline');
  await api.data.putEntry({ treeId: 'customers', key: 'c2', valueJson: '{"n":2}' });
  await captured(api, 'customers', 'customers after the November import');
  await api.backup.scheduleBackup({
    scope: { treeId: 'customers' },
    incremental: false,
    interval: durationFromMs(86_400_000),
  });
  await api.backup.scheduleBackup({
    scope: { treeId: 'customers' },
    incremental: true,
    interval: durationFromMs(3_600_000),
  });
  await api.backupInsight.configureScheduleExtras({
    scope: { treeId: 'customers' },
    anchor: { timeOfDay: '02:00', timeZone: 'Europe/Berlin' },
  });
  // A throttled capture keeps running: the tray stays docked beside the page.
  await seedLargeTree(api, tenant.name, 'busy', 4_000);
  const running = await api.backup.startBackup({
    name: 'busy',
    scope: { treeId: 'busy' },
    maxEntriesPerSecond: 100,
  });

  await page.setViewportSize(WIDE);
  await signInWithToken(page, tenant.admin.token);
  const tray = new OperationsTray(page);
  for (const [url, heading] of [
    ['/operations', 'Operations'],
    ['/schedules/overview', 'Schedule overview'],
    ['/backups', 'Backups'],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    await tray.expectRunning(1);
    expect(await tray.layout()).toBe('docked');
    await expect(page.locator('.table-wrap tbody tr').first()).toBeVisible();
    const overflows = (await tableOverflows(page)).filter((px) => px > 0);
    expect(overflows, `${url}: px a table needs to scroll sideways`).toEqual([]);
  }
  await api.backup.cancelBackupOperation({ operationId: running.operationId });
});
