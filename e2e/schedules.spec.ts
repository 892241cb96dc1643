import { expectNoSeriousA11yViolations } from './support/axe';
import { SchedulesPages } from './pages/schedules-pages';
import { expect, signInWithToken, test } from './support/fixtures';

test('a schedule below the server minimum is registered clamped, shown, and cancelled', async ({
  page,
  tenant,
}, testInfo) => {
  await tenant.api.data.putEntry({ treeId: 'orders', key: 'o-1', valueJson: '{"total":1}' });
  await signInWithToken(page, tenant.admin.token);
  await page.goto('/schedules');
  await page.getByLabel('Tree').selectOption('orders');
  await expect(page).toHaveURL(/\/schedules\?tree=orders$/);

  const status = page.getByRole('region', { name: 'Scope status' });
  await expect(status).toContainText('Not scheduled');
  await expect(status).toContainText('No run yet');
  await expectNoSeriousA11yViolations(page, testInfo);

  const full = page.getByRole('form', { name: 'Full backups schedule' });
  await full.getByLabel('Full backup interval').fill('10');
  await full.getByLabel('Unit').selectOption('seconds');
  await full.getByRole('button', { name: 'Register schedule' }).click();

  // The server's default scheduler minimum is 60 s: the console says what it was clamped to.
  const fullCard = page.getByRole('region', { name: /^Full backups/ });
  await expect(fullCard.getByRole('status')).toHaveText(
    "Clamped to 1 minute: the requested 10 seconds is below the server's minimum interval.",
  );
  await expect(status).toContainText('Registered every 1 minute');
  await expect(page.getByRole('heading', { name: /Full backups Every 1 minute/ })).toBeVisible();

  // The scope status behind the console agrees.
  const registered = await tenant.api.backup.getScopeStatus({ scope: { treeId: 'orders' } });
  expect(registered.fullScheduleRegistered).toBe(true);
  expect(Number(registered.runtimeFullBackupInterval?.seconds)).toBe(60);

  // A link reproduces the view.
  await page.goto('/schedules?tree=orders');
  await full.getByRole('button', { name: 'Cancel schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the full schedule?' });
  await expect(dialog).toContainText(`tree orders in tenant ${tenant.name}`);
  await dialog.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(status.getByText('Registered')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: /Full backups Not scheduled/ })).toBeVisible();
  const cancelled = await tenant.api.backup.getScopeStatus({ scope: { treeId: 'orders' } });
  expect(cancelled.fullScheduleRegistered).toBe(false);
});

test('a key prefix of a tree is a scope of its own: its schedule is registered and cancelled apart from the whole tree', async ({
  page,
  tenant,
}) => {
  await tenant.api.data.putEntry({ treeId: 'regions', key: 'eu/1', valueJson: '{"n":1}' });
  await signInWithToken(page, tenant.admin.token);
  await page.goto('/schedules?tree=regions');
  const prefix = page.getByRole('form', { name: 'Scope key prefix' });
  await prefix.getByLabel('Key prefix').fill('eu/');
  await prefix.getByRole('button', { name: 'Show scope' }).click();
  await expect(page).toHaveURL(/\/schedules\?tree=regions&prefix=eu%2F$/);
  const status = page.getByRole('region', { name: 'Scope status' });
  await expect(status).toContainText('Tree regions, key prefix eu/');

  const full = page.getByRole('form', { name: 'Full backups schedule' });
  await full.getByLabel('Full backup interval').fill('2');
  await full.getByLabel('Unit').selectOption('hours');
  await full.getByRole('button', { name: 'Register schedule' }).click();
  await expect(status).toContainText('Registered every 2 hours');

  const eu = { treeId: 'regions', keyPrefix: 'eu/' };
  const scoped = await tenant.api.backup.getScopeStatus({ scope: eu });
  expect(Number(scoped.runtimeFullBackupInterval?.seconds)).toBe(7200);
  const whole = await tenant.api.backup.getScopeStatus({ scope: { treeId: 'regions' } });
  expect(whole.fullScheduleRegistered).toBe(false);

  await full.getByRole('button', { name: 'Cancel schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the full schedule?' });
  await expect(dialog).toContainText('under key prefix eu/');
  await dialog.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(page.getByRole('heading', { name: /Full backups Not scheduled/ })).toBeVisible();
  expect((await tenant.api.backup.getScopeStatus({ scope: eu })).fullScheduleRegistered).toBe(
    false,
  );
});

test('an unknown tree in the URL says so', async ({ page, tenant }) => {
  await signInWithToken(page, tenant.admin.token);
  await page.goto('/schedules?tree=no-such-tree');
  await expect(page.getByText('Unknown tree no-such-tree')).toBeVisible();
});

test('the schedule overview shows a schedule made in the form, with its anchor and next runs', async ({
  page,
  tenant,
}, testInfo) => {
  await tenant.api.data.putEntry({ treeId: 'nightly', key: 'n-1', valueJson: '{"n":1}' });
  await tenant.api.data.putEntry({ treeId: 'nightly', key: 'eu/1', valueJson: '{"n":2}' });
  await signInWithToken(page, tenant.admin.token);
  const schedules = new SchedulesPages(page);
  await page.setViewportSize({ width: 1440, height: 900 });

  await schedules.openScope('nightly');
  await schedules.register('Full', '24', 'hours');
  await schedules.register('Incremental', '6', 'hours');
  const saved = await schedules.anchor('02:00', 'Europe/Berlin');
  await expect(saved).toContainText('Full: every 24 h at 02:00 Europe/Berlin');
  await expect(saved).toContainText('incremental: every 6 h at 02:00 Europe/Berlin');
  await page.screenshot({ path: '/tmp/shots/schedules-form-1440.png', fullPage: true });
  // The server stored it: the spec's scope status is unchanged in meaning (24 h registered).
  const status = await tenant.api.backup.getScopeStatus({ scope: { treeId: 'nightly' } });
  expect(Number(status.runtimeFullBackupInterval?.seconds)).toBe(86_400);

  // A second scope of the same tree, unanchored, for the overview to list beside it.
  await page.goto('/schedules?tree=nightly&prefix=eu%2F');
  await schedules.register('Full', '2', 'hours');

  await schedules.openOverview();
  const row = schedules.overviewRow('nightly');
  await expect(row).toContainText('every 24 h at 02:00 Europe/Berlin');
  await expect(row).toContainText('every 6 h at 02:00 Europe/Berlin');
  await expect(row).toContainText(/in \d+ h|in \d+ min/);
  await expect(row).toContainText('No run yet');
  await row.getByText('Next 5 runs').click();
  const upcoming = row.getByRole('listitem');
  await expect(upcoming).toHaveCount(5);
  await expect(upcoming.first()).toContainText(
    /as “nightly (full|incremental) \d{4}-\d\d-\d\d \d\d:\d\d Europe\/Berlin”/,
  );
  // Anchored at 02:00 every 6 h: the runs' local times in Berlin are 02, 08, 14 or 20 o'clock.
  const times = await upcoming.locator('time').evaluateAll((nodes) =>
    nodes.map((n) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(n.getAttribute('datetime') ?? '')),
    ),
  );
  expect(
    times.every((t) => ['02:00', '08:00', '14:00', '20:00'].includes(t)),
    times.join(),
  ).toBe(true);
  const prefixed = schedules.overviewRow('nightly, key prefix eu/');
  await expect(prefixed).toContainText('every 2 h');
  await expectNoSeriousA11yViolations(page, testInfo);
  await page.screenshot({ path: '/tmp/shots/schedules-overview-1440.png', fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(row).toContainText('every 24 h at 02:00 Europe/Berlin');
  await page.screenshot({ path: '/tmp/shots/schedules-overview-390.png', fullPage: true });
  await schedules.openScope('nightly');
  await expect(schedules.settings.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await page.screenshot({ path: '/tmp/shots/schedules-form-390.png', fullPage: true });
});
