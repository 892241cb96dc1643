import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test } from './support/fixtures';

test('a scrub of a healthy catalog is clean, pruning asks first, and a rebuild runs', async ({
  page,
  tenant,
}, testInfo) => {
  await tenant.api.data.putEntry({ treeId: 'items', key: 'i-1', valueJson: '{"n":1}' });
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form seeds in one call
  await tenant.api.backup.createBackup({ name: 'items-full', scope: { treeId: 'items' } });

  await signInWithToken(page, tenant.admin.token);
  await page.goto('/maintenance');
  const scrub = page.getByRole('region', { name: 'Scrub' });
  const rebuild = page.getByRole('region', { name: 'Rebuild' });
  await expect(scrub.getByText('Never run in this tenant.')).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);

  await scrub.getByRole('button', { name: 'Start scrub' }).click();
  await expect(scrub.getByText('Succeeded')).toBeVisible();
  await expect(scrub.getByRole('status')).toHaveText(
    'Clean: every catalog row has its artifacts and no orphan artifact was found.',
  );
  await expect(scrub).toContainText('1 catalog rows');
  await expect(scrub).toContainText('Nothing (pruning was off)');

  // Pruning deletes: the confirmation names the tenant; the result says what was deleted.
  await scrub.getByLabel('Prune orphan artifacts (deletes them)').check();
  await scrub.getByRole('button', { name: 'Start scrub' }).click();
  const dialog = page.getByRole('dialog', { name: 'Scrub and delete orphan artifacts?' });
  await expect(dialog).toContainText(`tenant ${tenant.name}`);
  await dialog.getByRole('button', { name: 'Scrub and prune' }).click();
  await expect(scrub).toContainText('0 orphans deleted');

  await rebuild.getByRole('button', { name: 'Start rebuild' }).click();
  await expect(rebuild.getByText('Succeeded')).toBeVisible();
  await expect(rebuild).toContainText(/Rows re-created\s*0/);
  await expect(rebuild).toContainText(/Already in the catalog\s*1/);
  await expectNoSeriousA11yViolations(page, testInfo);

  // The latest results survive a reload: they are read from the server, not the page's memory.
  await page.reload();
  await expect(rebuild).toContainText(/Already in the catalog\s*1/);
  await expect(scrub).toContainText('0 orphans deleted');
});
