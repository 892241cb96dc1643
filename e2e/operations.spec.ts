import { StoreOperationState } from '@store/contract';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test } from './support/fixtures';
import { seedLargeTree } from './support/large-tree';

test.describe('operations', () => {
  test('a capture goes to SUCCEEDED live; the detail shows progress, timings and the backup', async ({
    page,
    tenant,
  }, testInfo) => {
    // Throttled to about 10 s (capture reads on COPY take well under a second unthrottled), long
    // enough to be seen running before it finishes.
    await seedLargeTree(tenant.api, tenant.name, 'catalog', 30_000);
    await signInWithToken(page, tenant.admin.token);
    const handle = await tenant.api.backup.startBackup({
      name: 'live',
      scope: { treeId: 'catalog' },
      maxEntriesPerSecond: 3_000,
    });

    await page.goto('/operations');
    // A mark on this document: a reload would lose it.
    await page.evaluate(() => {
      (window as unknown as { e2eNoReload: boolean }).e2eNoReload = true;
    });
    const row = page.getByRole('row').filter({ hasText: handle.operationId });
    await expect(row).toContainText(/Queued|Running/);
    await expectNoSeriousA11yViolations(page, testInfo);
    await expect(row).toContainText('Succeeded', { timeout: 45_000 });
    // Same document all along: the list updated itself, nobody reloaded.
    expect(
      await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload),
    ).toBe(true);

    await row.getByRole('link').first().click();
    await expect(page).toHaveURL(new RegExp(`/operations/${handle.operationId}$`));
    await expect(page.getByRole('heading', { name: /^Status/ })).toContainText('Succeeded');
    // The page's own bar (a docked tray can show the same operation's bar beside it).
    await expect(
      page
        .getByRole('region', { name: /^Status/ })
        .getByRole('progressbar', { name: 'Backup progress' }),
    ).toBeVisible();
    const timings = page.getByRole('region', { name: 'Timings' });
    await expect(timings).toBeVisible();
    const status = await tenant.api.backup.getBackupOperationStatus({
      operationId: handle.operationId,
    });
    expect(status.status?.state).toBe(StoreOperationState.SUCCEEDED);
    const backupId =
      status.status?.result.case === 'capture' ? status.status.result.value.backupId : '';
    expect(backupId).not.toBe('');
    await expectNoSeriousA11yViolations(page, testInfo);
    await page
      .getByRole('region', { name: 'Result' })
      .getByRole('link', { name: backupId })
      .click();
    await expect(page).toHaveURL(new RegExp(`/backups/${backupId}$`));
  });

  test('the tray shows a long capture across a reload, and the detail page cancels it', async ({
    page,
    tenant,
  }) => {
    // Throttled, this runs for a hundred seconds; it is cancelled within seconds.
    await seedLargeTree(tenant.api, tenant.name, 'huge', 20_000);
    // Signed in first: the capture keeps the server busy.
    await signInWithToken(page, tenant.admin.token);
    const tray = page.getByRole('complementary', { name: 'Operations tray' });
    await expect(tray.getByRole('button', { name: /Operations: 0 running/ })).toBeVisible();
    const handle = await tenant.api.backup.startBackup({
      name: 'too-long',
      scope: { treeId: 'huge' },
      maxEntriesPerSecond: 200,
    });

    await page.reload();
    await expect(tray.getByRole('button', { name: /Operations: 1 running/ })).toBeVisible();
    await expect(tray.getByRole('link', { name: 'Backup' })).toBeVisible();
    await page.reload();
    await expect(tray.getByRole('button', { name: /Operations: 1 running/ })).toBeVisible();
    await expect(tray.getByRole('progressbar', { name: 'Backup progress' })).toBeVisible();

    await tray.getByRole('link', { name: 'Backup' }).click();
    await expect(page).toHaveURL(new RegExp(`/operations/${handle.operationId}$`));
    await expect(page.getByRole('heading', { name: /^Status/ })).toContainText('Running');
    await page.getByRole('button', { name: 'Cancel operation' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this backup?' });
    await expect(dialog).toContainText(`on huge in tenant ${tenant.name}`);
    await dialog.getByRole('button', { name: 'Cancel operation' }).click();
    await expect(page.getByRole('heading', { name: /^Status/ })).toContainText('Cancelled');
    await expect(tray.getByRole('button', { name: /Operations: 0 running/ })).toBeVisible();
    const status = await tenant.api.backup.getBackupOperationStatus({
      operationId: handle.operationId,
    });
    expect(status.status?.state).toBe(StoreOperationState.CANCELLED);
    // A cancelled capture leaves no backup behind.
    expect((await tenant.api.backup.listBackups({ treeId: 'huge' })).backups).toEqual([]);
  });

  test('filters live in the URL, and a link reproduces the view', async ({ page, tenant }) => {
    await tenant.api.data.putEntry({ treeId: 'small', key: 'a', valueJson: '1' });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form seeds in one call
    await tenant.api.backup.createBackup({ name: 'one', scope: { treeId: 'small' } });
    const scrub = await tenant.api.backup.startCatalogScrub({ pruneOrphans: false });
    await signInWithToken(page, tenant.admin.token);

    await page.goto('/operations');
    const filters = page.getByRole('search', { name: 'Filter operations' });
    await filters.getByLabel('Kind').selectOption('CATALOG_SCRUB');
    await expect(page).toHaveURL(/\/operations\?kind=CATALOG_SCRUB$/);
    await expect(page.getByRole('row').filter({ hasText: scrub.operationId })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: 'Backup' })).toHaveCount(0);

    // A fresh page from the link alone shows the same view.
    await page.goto('/operations?kind=BACKUP&state=SUCCEEDED&target=small');
    await expect(filters.getByLabel('Kind')).toHaveValue('BACKUP');
    await expect(filters.getByLabel('State')).toHaveValue('SUCCEEDED');
    await expect(filters.getByLabel('Target id')).toHaveValue('small');
    await expect(page.getByRole('row').filter({ hasText: 'small' })).toHaveCount(1);
    await expect(page.getByRole('row').filter({ hasText: scrub.operationId })).toHaveCount(0);
  });
});
