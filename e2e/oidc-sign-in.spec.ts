import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, test } from './support/fixtures';
import { signInWithOidc } from './support/oidc';

test('signs in through the OpenID provider and comes back signed in', async ({
  page,
}, testInfo) => {
  const tenant = process.env.E2E_OIDC_TENANT ?? 'default';
  await page.goto('/operations?state=SUCCEEDED');
  await expect(page).toHaveURL(/\/sign-in/);
  // The stack grants the test user two tenants (store_tenants): the console asks which one.
  const { askedForTenant } = await signInWithOidc(page, 'ada', tenant);
  expect(askedForTenant).toBe(true);

  // Back where the user was going, signed in as the provider's subject, in the chosen tenant.
  await expect(page).toHaveURL(/\/operations\?state=SUCCEEDED$/);
  const identity = page.locator('.identity');
  await expect(identity).toContainText('oidc:ada');
  await expect(identity).toContainText('via single sign-on · admin');
  await expect(page.getByLabel('Tenant')).toHaveValue(tenant);
  await expect(page.getByRole('heading', { name: 'Operations' })).toBeVisible();
  await expect(page.getByText('No operation matches these filters')).toBeVisible();

  // Nothing of the sign-in is in the URL or localStorage.
  const leaked = await page.evaluate(() => JSON.stringify({ ...localStorage }) + location.href);
  expect(leaked).not.toMatch(/code=|access_token|eyJ/);
  await expectNoSeriousA11yViolations(page, testInfo);
});
