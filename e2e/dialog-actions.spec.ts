import type { Locator, Page } from '@playwright/test';
import { seedNamedChain } from './pages/backup-names';
import { expect, signInWithToken, test } from './support/fixtures';

const SIZES = [
  { name: 'wide', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * Every dialog's buttons sit in one actions row: the way out (Cancel, Close, Keep it) first, at
 * the left, and the dialog's own action last, at the right. Measured in the browser, so a row
 * that wraps on a phone still ends with the primary action.
 */
async function expectActionsInOrder(dialog: Locator, dismiss: string, primary: string | RegExp) {
  const rows = dialog.getByTestId('dialog-actions');
  await expect(rows).toHaveCount(1);
  const buttons = rows.getByRole('button');
  await expect(buttons.first()).toHaveText(dismiss);
  await expect(buttons.last()).toHaveText(primary);
  await expect(buttons.last()).toHaveClass(/btn--(primary|danger)(\s|$)/);
  await expect(buttons.first()).not.toHaveClass(/btn--(primary|danger)(\s|$)/);
  const first = await buttons.first().boundingBox();
  const last = await buttons.last().boundingBox();
  if (!first || !last) throw new Error('the dialog buttons are not laid out');
  // Left of the primary on the same line, or on a line above it when the row wraps.
  expect(first.x + first.width <= last.x || first.y + first.height <= last.y).toBe(true);
  // The primary action ends at the row's right edge.
  const row = await rows.boundingBox();
  if (!row) throw new Error('the actions row is not laid out');
  expect(Math.abs(row.x + row.width - (last.x + last.width))).toBeLessThan(2);
}

async function closeWith(page: Page, dialog: Locator) {
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

test.describe('dialog actions', () => {
  for (const size of SIZES) {
    test(`every dialog puts the way out on the left and its action on the right (${size.name})`, async ({
      page,
      tenant,
    }) => {
      const { incrementalId } = await seedNamedChain(tenant.api, 'orders', {
        full: 'orders full',
        incremental: 'orders delta',
      });
      await page.setViewportSize(SIZES[0]);
      await signInWithToken(page, tenant.admin.token);
      await page.setViewportSize(size);

      await page.goto(`/backups/${incrementalId}`);
      const restore = page.getByRole('button', { name: 'Restore', exact: true });
      await expect(restore).toBeEnabled();

      // Restore: first focus on the form's first field (the chosen mode), not the id's Copy.
      await restore.click();
      let dialog = page.getByRole('dialog', { name: /^Restore/ });
      await expect(dialog.locator('input[name="restore-mode"]:checked')).toBeFocused();
      await expect(dialog.getByRole('button', { name: /^Copy backup id/ })).not.toBeFocused();
      await // Continue (in place, a confirmation follows) or Start restore, by the default mode.
      await expectActionsInOrder(dialog, 'Cancel', /^(Continue|Start restore)$/);
      await page.screenshot({ path: `/tmp/shots/i33-small-restore-${size.name}.png` });
      await closeWith(page, dialog);

      await page.getByRole('button', { name: 'Start incremental' }).click();
      dialog = page.getByRole('dialog', { name: 'Start a backup' });
      await expectActionsInOrder(dialog, 'Cancel', 'Start incremental backup');
      await closeWith(page, dialog);

      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      dialog = page.getByRole('dialog', { name: /^Delete this backup/ });
      await expectActionsInOrder(dialog, 'Keep it', 'Delete backup');
      await closeWith(page, dialog);

      await page.getByRole('button', { name: 'Protect', exact: true }).click();
      dialog = page.getByRole('dialog', { name: 'Protect this backup?' });
      await expectActionsInOrder(dialog, 'Cancel', 'Protect');
      await closeWith(page, dialog);

      await page.goto('/trees/orders');
      await expect(page.getByRole('button', { name: 'Put entry' })).toBeEnabled();
      await page.getByRole('button', { name: 'Put entry' }).click();
      dialog = page.getByRole('dialog', { name: 'Put an entry' });
      await expect(dialog.getByLabel('Key')).toBeFocused();
      await expectActionsInOrder(dialog, 'Close', 'Put entry');
      await closeWith(page, dialog);

      await page.getByRole('button', { name: 'View a', exact: true }).click();
      dialog = page.getByRole('dialog', { name: 'Entry a' });
      await expectActionsInOrder(dialog, 'Delete', 'Close');
      await closeWith(page, dialog);

      await page.getByRole('button', { name: 'Delete a', exact: true }).click();
      dialog = page.getByRole('dialog');
      await expectActionsInOrder(dialog, 'Keep it', 'Delete entry');
      await page.screenshot({ path: `/tmp/shots/i33-small-delete-entry-${size.name}.png` });
      await closeWith(page, dialog);
    });
  }
});
