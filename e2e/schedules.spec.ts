import { expectNoSeriousA11yViolations } from './support/axe';
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
