import { seedNamedChain } from './pages/backup-names';
import { expect, signInWithToken, test } from './support/fixtures';

test.describe('dialogs', () => {
  test('focus returns to the button that opened a dialog, whichever way it closes', async ({
    page,
    tenant,
  }) => {
    const { incrementalId } = await seedNamedChain(tenant.api, 'orders', {
      full: 'orders full',
      incremental: 'orders delta',
    });
    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/backups/${incrementalId}`);
    const opener = page.getByRole('button', { name: 'Delete', exact: true });
    const dialog = page.getByRole('dialog', { name: 'Delete this backup?' });

    // Enabled once the capability probe has answered.
    await expect(opener).toBeEnabled();

    // Escape.
    await opener.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // Cancel ("Keep it").
    await opener.click();
    await dialog.getByRole('button', { name: 'Keep it' }).click();
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // A click on the backdrop (outside the dialog's box).
    await opener.click();
    await expect(dialog).toBeVisible();
    await page.mouse.click(5, 5);
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();

    // Another dialog, closed by its own confirm: Start incremental → the form's Cancel.
    const incremental = page.getByRole('button', { name: 'Start incremental' });
    await incremental.click();
    const form = page.getByRole('dialog');
    await expect(form).toBeVisible();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
    await expect(incremental).toBeFocused();
  });
});
