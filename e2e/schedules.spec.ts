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

  const schedules = new SchedulesPages(page);
  await schedules.fillCadence('Full', '10', 'seconds');
  await schedules.save();

  // The server's default scheduler minimum is 60 s: the console says what it was clamped to.
  const full = schedules.cadence('Full');
  await expect(full.getByRole('status')).toHaveText(
    "Clamped to 1 minute: the requested 10 seconds is below the server's minimum interval.",
  );
  await expect(status).toContainText('Registered every 1 minute');
  await expect(
    schedules.form.getByRole('group', { name: /Full backups Every 1 minute/ }),
  ).toBeVisible();

  // The scope status behind the console agrees.
  const registered = await tenant.api.backup.getScopeStatus({ scope: { treeId: 'orders' } });
  expect(registered.fullScheduleRegistered).toBe(true);
  expect(Number(registered.runtimeFullBackupInterval?.seconds)).toBe(60);

  // A link reproduces the view.
  await page.goto('/schedules?tree=orders');
  await full.getByRole('button', { name: 'Cancel full schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the full schedule?' });
  await expect(dialog).toContainText(`tree orders in tenant ${tenant.name}`);
  await dialog.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(status.getByText('Registered')).toHaveCount(0);
  await expect(
    schedules.form.getByRole('group', { name: /Full backups Not scheduled/ }),
  ).toBeVisible();
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

  const schedules = new SchedulesPages(page);
  await schedules.register('Full', '2', 'hours');
  await expect(status).toContainText('Registered every 2 hours');

  const eu = { treeId: 'regions', keyPrefix: 'eu/' };
  const scoped = await tenant.api.backup.getScopeStatus({ scope: eu });
  expect(Number(scoped.runtimeFullBackupInterval?.seconds)).toBe(7200);
  const whole = await tenant.api.backup.getScopeStatus({ scope: { treeId: 'regions' } });
  expect(whole.fullScheduleRegistered).toBe(false);

  await schedules.cadence('Full').getByRole('button', { name: 'Cancel full schedule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the full schedule?' });
  await expect(dialog).toContainText('under key prefix eu/');
  await dialog.getByRole('button', { name: 'Cancel schedule' }).click();
  await expect(
    schedules.form.getByRole('group', { name: /Full backups Not scheduled/ }),
  ).toBeVisible();
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
  // Both cadences and their time of day, saved with one click.
  await schedules.fillCadence('Full', '24', 'hours');
  await schedules.fillCadence('Incremental', '6', 'hours');
  await schedules.fillStartTime('02:00', 'Europe/Berlin');
  const saved = await schedules.save();
  await expect(saved).toContainText('Full: every 24 h at 02:00 Europe/Berlin');
  await expect(saved).toContainText('incremental: every 6 h at 02:00 Europe/Berlin');
  const stored = await tenant.api.backupInsight.listSchedules({ scope: { treeId: 'nightly' } });
  expect(stored.schedules[0]?.anchor).toMatchObject({
    timeOfDay: '02:00',
    timeZone: 'Europe/Berlin',
  });
  // The next full and the next incremental, both, in the schedule's zone and named.
  const next = page.getByRole('region', { name: 'Next runs' });
  await expect(next.locator('dt', { hasText: 'Next full' }).locator('+ dd')).toContainText(
    /\d\d:\d\d Europe\/Berlin$/,
  );
  await expect(next.locator('dt', { hasText: 'Next incremental' }).locator('+ dd')).toContainText(
    /(02|08|14|20):00 Europe\/Berlin$/,
  );
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
  await expect(schedules.form.getByLabel('Time zone')).toHaveValue('Europe/Berlin');
  await page.screenshot({ path: '/tmp/shots/schedules-form-390.png', fullPage: true });
});

test.describe('in a browser in another zone', () => {
  // Tokyo keeps no daylight saving time: 02:00 in Berlin is 10:00 there in winter, 09:00 in summer.
  test.use({ timezoneId: 'Asia/Tokyo' });

  test("times on the schedules pages are in one zone, named, and switch between the schedule's and the browser's", async ({
    page,
    tenant,
  }) => {
    await tenant.api.data.putEntry({ treeId: 'zoned', key: 'z-1', valueJson: '{"n":1}' });
    await signInWithToken(page, tenant.admin.token);
    await page.setViewportSize({ width: 1440, height: 900 });
    const schedules = new SchedulesPages(page);
    await schedules.openScope('zoned');
    await schedules.fillCadence('Full', '24', 'hours');
    await schedules.fillCadence('Incremental', '6', 'hours');
    await schedules.fillStartTime('02:00', 'Europe/Berlin');
    await schedules.save();

    const next = page.getByRole('region', { name: 'Next runs' });
    const nextFull = next.locator('dt', { hasText: 'Next full' }).locator('+ dd');
    const nextIncremental = next.locator('dt', { hasText: 'Next incremental' }).locator('+ dd');
    await expect(nextFull).toContainText(/02:00 Europe\/Berlin$/);
    await expect(nextIncremental).toContainText(/(02|08|14|20):00 Europe\/Berlin$/);
    await page.screenshot({ path: '/tmp/shots/i33-layout-schedule-zone-1440.png', fullPage: true });

    await schedules.zoneSwitch.getByLabel("this browser's zone (Asia/Tokyo)").check();
    await expect(nextFull).toContainText(/(09|10):00 Asia\/Tokyo$/);
    await expect(nextIncremental).toContainText(/(03|04|09|10|15|16|21|22):00 Asia\/Tokyo$/);
    // One zone on the page: the scope status and the runs say Tokyo, none Berlin.
    await expect(page.getByRole('region', { name: 'Scope status' })).not.toContainText('Berlin');
    await expect(nextFull).not.toContainText('Berlin');
    await page.screenshot({
      path: '/tmp/shots/i33-layout-schedule-browser-zone-1440.png',
      fullPage: true,
    });

    // The overview follows the same choice (kept for the session), and switches back.
    await schedules.openOverview();
    const row = schedules.overviewRow('zoned');
    await expect(row).toContainText(/every 24 h at (09|10):00 Asia\/Tokyo/);
    await expect(row.locator('dt', { hasText: 'Next full' }).locator('+ dd')).toContainText(
      /(09|10):00 Asia\/Tokyo$/,
    );
    await schedules.zoneSwitch.getByLabel("each schedule's zone").check();
    await expect(row).toContainText('every 24 h at 02:00 Europe/Berlin');
    await expect(row.locator('dt', { hasText: 'Next incremental' }).locator('+ dd')).toContainText(
      /Europe\/Berlin$/,
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({
      path: '/tmp/shots/i33-layout-schedule-overview-390.png',
      fullPage: true,
    });
  });
});
