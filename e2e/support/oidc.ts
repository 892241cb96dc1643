import { expect, type Page } from '@playwright/test';

/**
 * Signs in through the console's single sign-on button and the test provider's development
 * screens (any login and password, then consent). Returns whether the console asked for the
 * tenant to start in (the user is granted several), after choosing `tenant` there.
 */
export async function signInWithOidc(
  page: Page,
  login: string,
  tenant: string,
): Promise<{ askedForTenant: boolean }> {
  if (!/\/sign-in/.test(page.url())) await page.goto('/sign-in');
  await page.getByRole('button', { name: /^Sign in with (?!API token)/ }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any-password');
  await page.getByRole('button', { name: /sign-in/i }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  const nav = page.getByRole('navigation', { name: /main/i });
  const choice = page.getByRole('form', { name: 'Choose a tenant' });
  await expect(nav.or(choice)).toBeVisible();
  if (await nav.isVisible()) return { askedForTenant: false };
  await choice.getByLabel('Tenant').selectOption(tenant);
  await choice.getByRole('button', { name: 'Continue' }).click();
  await expect(nav).toBeVisible();
  return { askedForTenant: true };
}
