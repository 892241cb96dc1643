import { mkdirSync } from 'node:fs';
import { createClient } from '@connectrpc/connect';
import { RestoreDrillPlanService, StoreOperationState } from '@store/contract';
import { VIEWPORTS, elementsPastTheEdge, pageWidths } from './pages/app-routes';
import { SchedulesPages } from './pages/schedules-pages';
import { expectNoSeriousA11yViolations } from './support/axe';
import { authedGrpcWebTransport } from './support/authed-transport';
import { expect, issueToken, signInWithToken, test, type StoreApi } from './support/fixtures';

const SHOTS = '/tmp/shots';

async function captured(api: StoreApi, treeId: string): Promise<string> {
  const { operationId } = await api.backup.startBackup({
    name: `${treeId} full`,
    scope: { treeId },
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { status } = await api.backup.getBackupOperationStatus({ operationId });
    if (status?.state === StoreOperationState.SUCCEEDED && status.result.case === 'capture') {
      return status.result.value.backupId;
    }
    if (status && status.state > StoreOperationState.SUCCEEDED) throw new Error('capture failed');
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('capture did not finish');
}

// Issue 36 bullet 3: a drill plan made in the console, seen in the schedules overview with its
// next run, run now, and its drill's result read back on the scope's page.
test('a drill plan is created, shows in the schedules overview with its next run, runs now and proves the backup', async ({
  page,
  tenant,
}, testInfo) => {
  mkdirSync(SHOTS, { recursive: true });
  for (let i = 0; i < 12; i++) {
    await tenant.api.data.putEntry({
      treeId: 'ledger',
      key: `entry-${i}`,
      valueJson: JSON.stringify({ i }),
    });
  }
  const backupId = await captured(tenant.api, 'ledger');
  await signInWithToken(page, tenant.admin.token);
  await page.setViewportSize(VIEWPORTS.wide);
  const schedules = new SchedulesPages(page);
  await schedules.openScope('ledger');

  const section = page.getByRole('region', { name: 'Restore drill plans' });
  await expect(section.getByText('No drill plans')).toBeVisible();
  await section.getByRole('button', { name: 'New drill plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'New drill plan' });
  await dialog.getByLabel('Name', { exact: true }).fill('nightly proof');
  await dialog.getByLabel('Every', { exact: true }).fill('1');
  await dialog.getByLabel('Unit').selectOption('days');
  await dialog.getByLabel('Time of day', { exact: true }).fill('02:30');
  await dialog.getByLabel('Time zone', { exact: true }).fill('Europe/Berlin');
  await dialog.getByLabel(/^The newest backup/).check();
  await page.screenshot({ path: `${SHOTS}/i36-drill-plan-form-1440.png` });
  await dialog.getByRole('button', { name: 'Save plan' }).click();
  await expect(dialog).toBeHidden();

  const row = section.getByRole('row', { name: /nightly proof/ });
  await expect(row).toContainText('Every 1 day at 02:30 (Europe/Berlin)');
  await expect(row).toContainText('Next:');
  await expect(row).toContainText('The newest backup');
  await expect(row).toContainText('Never ran');
  await expectNoSeriousA11yViolations(page, testInfo);

  // The server has it, with the next run at 02:30 Berlin time.
  const plans = createClient(
    RestoreDrillPlanService,
    authedGrpcWebTransport(process.env.E2E_BASE_URL!, tenant.admin.token, tenant.name),
  );
  const [stored] = (await plans.listRestoreDrillPlans({ scope: { treeId: 'ledger' } })).plans;
  expect(stored?.cadence).toMatchObject({ timeOfDay: '02:30', timeZone: 'Europe/Berlin' });
  const nextRun = new Date(Number(stored?.nextRunAt?.seconds) * 1000);
  expect(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
    }).format(nextRun),
  ).toBe('02:30');

  // The schedules overview names the plan and its next run.
  await page.goto('/schedules/overview');
  const overview = page.getByRole('region', { name: 'All schedules' });
  const scopeRow = overview.getByRole('row', { name: /ledger/ });
  await expect(scopeRow).toContainText('Drill plan nightly proof');
  await expect(scopeRow).toContainText(/in \d+ h/);
  await expect(scopeRow).toContainText('the newest backup');
  await page.screenshot({ path: `${SHOTS}/i36-drill-plans-overview-1440.png`, fullPage: true });

  // Run now: the drill proves the newest backup, and the plan says so.
  await schedules.openScope('ledger');
  await section.getByRole('button', { name: 'Run drill plan nightly proof now' }).click();
  await expect(row.getByText('Proven', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText(`the newest backup of ledger: ledger full`);
  await expect(row).toContainText(
    'restored 12 entries; content digest and 12 sampled entries match',
  );
  const [ran] = (await plans.listRestoreDrillPlans({ scope: { treeId: 'ledger' } })).plans;
  expect(ran?.lastRun?.backupId).toBe(backupId);
  await page.screenshot({ path: `${SHOTS}/i36-drill-plans-1440.png`, fullPage: true });

  await page.setViewportSize(VIEWPORTS.phone);
  await expect(row.getByText('Proven', { exact: true })).toBeVisible();
  const widths = await pageWidths(page);
  expect(widths.scrollWidth, (await elementsPastTheEdge(page)).join(', ')).toBeLessThanOrEqual(
    widths.innerWidth,
  );
  await page.screenshot({ path: `${SHOTS}/i36-drill-plans-390.png`, fullPage: true });
  await page.goto('/schedules/overview');
  await expect(page.getByText('Drill plan nightly proof')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/i36-drill-plans-overview-390.png`, fullPage: true });

  // Delete says what goes (the plan only) and what stays (its drills).
  await page.setViewportSize(VIEWPORTS.wide);
  await schedules.openScope('ledger');
  await section.getByRole('button', { name: 'Delete drill plan nightly proof' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete drill plan nightly proof?' });
  await expect(confirm).toContainText(`in tenant ${tenant.name}`);
  await expect(confirm).toContainText('the drills it ran stay in the drill history');
  await page.screenshot({ path: `${SHOTS}/i36-drill-plan-delete-1440.png` });
  await confirm.getByRole('button', { name: 'Delete plan' }).click();
  await expect(section.getByText('No drill plans')).toBeVisible();
  expect((await plans.listRestoreDrillPlans({ scope: { treeId: 'ledger' } })).plans).toEqual([]);
});

test('a viewer reads a scope’s drill plans and is told why it cannot change or run them', async ({
  page,
  tenant,
}) => {
  await tenant.api.data.putEntry({ treeId: 'viewed', key: 'k', valueJson: '1' });
  const plans = createClient(
    RestoreDrillPlanService,
    authedGrpcWebTransport(process.env.E2E_BASE_URL!, tenant.admin.token, tenant.name),
  );
  await plans.setRestoreDrillPlan({ scope: { treeId: 'viewed' }, name: 'by hand', choice: 1 });
  const viewer = issueToken(tenant.name, ['viewer'], 'e2e-viewer');
  await signInWithToken(page, viewer.token);
  await new SchedulesPages(page).openScope('viewed');
  const section = page.getByRole('region', { name: 'Restore drill plans' });
  const row = section.getByRole('row', { name: /by hand/ });
  await expect(row).toContainText('On demand');
  await expect(row.getByRole('button', { name: 'Run drill plan by hand now' })).toBeDisabled();
  await expect(section.getByRole('button', { name: 'New drill plan' })).toBeDisabled();
  await expect(
    section.getByText(/Needs the operator role \(you are a viewer/).first(),
  ).toBeVisible();
  await expect(row.getByRole('button', { name: /Delete drill plan/ })).toHaveCount(0);
});
