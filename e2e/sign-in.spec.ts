import { expect, issueToken, revokeToken, signInWithToken, test } from './support/fixtures';
import { expectNoSeriousA11yViolations } from './support/axe';

test.describe('sign-in', () => {
  test('offers exactly the advertised schemes and signs in with an API token', async ({
    page,
    tenant,
  }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/sign-in/);
    const schemes = page.getByRole('list', { name: 'Ways to sign in' });
    await expect(schemes.getByRole('listitem')).toHaveCount(2);
    await signInWithToken(page, tenant.admin.token);
    await expect(page.getByText(tenant.name).first()).toBeVisible();
    const stored = await page.evaluate(() => ({ local: { ...localStorage }, url: location.href }));
    expect(JSON.stringify(stored)).not.toContain(tenant.admin.token);
  });

  test('a revoked token lands on sign-in with a message', async ({ page, tenant }) => {
    const viewer = issueToken(tenant.name, ['viewer']);
    await signInWithToken(page, viewer.token);
    revokeToken(viewer.id);
    await page.reload();
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByText(/session ended/i)).toBeVisible();
  });
});

test('the sign-in page has no serious accessibility violation', async ({ page }, testInfo) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('list', { name: 'Ways to sign in' })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
});
