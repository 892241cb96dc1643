import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test } from './support/fixtures';
import { signInWithOidc } from './support/oidc';
import { E2E_OIDC_SECOND_TENANT } from './support/stack';

test.describe('shell', () => {
  test('the dark theme persists across a reload, and only it is in localStorage', async ({
    page,
    tenant,
  }, testInfo) => {
    await signInWithToken(page, tenant.admin.token);
    const toggle = page.getByRole('button', { name: 'Dark theme' });
    const startDark = (await toggle.getAttribute('aria-pressed')) === 'true';
    await toggle.click();
    const expected = startDark ? 'light' : 'dark';
    await expect(page.locator('html')).toHaveAttribute('data-theme', expected);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', expected);
    await expect(toggle).toHaveAttribute('aria-pressed', String(!startDark));
    const local = await page.evaluate(() => Object.keys(localStorage));
    expect(local).toEqual(['store.theme']);
    await expectNoSeriousA11yViolations(page, testInfo);
    // Back to the default for the other tests of this browser context (each has its own anyway).
    await toggle.click();
  });

  test('the tenant switcher changes the tenant of every call and survives a reload', async ({
    page,
  }) => {
    const home = process.env.E2E_OIDC_TENANT ?? 'default';
    await page.goto('/schedules');
    await signInWithOidc(page, 'grace', home);
    const switcher = page.getByLabel('Tenant');
    await expect(switcher).toHaveValue(home);
    await expect(page.locator('.identity')).toContainText('admin');

    await switcher.selectOption(E2E_OIDC_SECOND_TENANT);
    await expect(page.getByText(`Switched to tenant ${E2E_OIDC_SECOND_TENANT}`)).toBeVisible();
    // Roles and pages follow the tenant: a viewer there, and the page names it.
    await expect(page.locator('.identity')).toContainText('via single sign-on · viewer');
    await expect(page.getByRole('heading', { name: 'Schedules' })).toBeVisible();
    await expect(page.locator('.page-header')).toContainText(
      `in tenant ${E2E_OIDC_SECOND_TENANT}.`,
    );
    await page.reload();
    await expect(switcher).toHaveValue(E2E_OIDC_SECOND_TENANT);
    await page.goto('/maintenance');
    await expect(page.getByRole('button', { name: 'Start scrub' })).toBeDisabled();
    await expect(
      page.getByText(
        new RegExp(
          `^Needs the admin role \\(you are an? \\w+ in tenant ${E2E_OIDC_SECOND_TENANT}\\)\\.$`,
        ),
      ),
    ).toBeVisible();
  });

  test('a server refusal is a toast with the gRPC code and message; times show UTC on hover', async ({
    page,
    tenant,
  }) => {
    await signInWithToken(page, tenant.admin.token);
    await tenant.api.data.putEntry({ treeId: 'gone', key: 'a', valueJson: '1' });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form seeds in one call
    const { backupId } = await tenant.api.backup.createBackup({
      name: 'gone-full',
      scope: { treeId: 'gone' },
    });
    await page.goto(`/health?backup=${backupId}`);
    await expect(page.getByText('Never verified').first()).toBeVisible();
    // Someone else deletes the backup meanwhile: the server refuses the check.
    await tenant.api.backup.deleteBackup({ backupId });
    await page.getByRole('button', { name: 'Check now' }).click();
    const toast = page.locator('.toast--error');
    await expect(toast).toContainText('Health check not started');
    await expect(toast).toContainText(`NotFound: backup ${backupId} does not exist`);
    await page.reload();
    await expect(page.getByText(`Unknown backup ${backupId}`)).toBeVisible();

    await tenant.api.backup.startCatalogScrub({ pruneOrphans: false });
    await page.goto('/maintenance');
    const started = page.getByRole('region', { name: 'Scrub' }).locator('time').first();
    await expect(started).toHaveAttribute('title', /^UTC \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const iso = await started.getAttribute('datetime');
    expect(Number.isNaN(Date.parse(iso ?? ''))).toBe(false);
  });

  test('sign-out clears sessionStorage and returns to sign-in', async ({ page, tenant }) => {
    await signInWithToken(page, tenant.admin.token);
    await page.goto('/operations');
    expect(await page.evaluate(() => sessionStorage.length)).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    expect(await page.evaluate(() => ({ ...sessionStorage }))).toEqual({});
    await page.goto('/operations');
    await expect(page).toHaveURL(/\/sign-in/);
  });
});
