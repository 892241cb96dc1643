import { BackupComparePage, RestoreDialog, readCounts } from './pages/backup-insight-pages';
import { madeBackup } from './pages/backup-names';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';
import { brokenWords } from './support/words';

const PHONE = { width: 390, height: 844 } as const;
const TREE = 'ledger';

async function put(api: StoreApi, entries: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(entries)) {
    await api.data.putEntry({ treeId: TREE, key, valueJson: JSON.stringify(value) });
  }
}

/** A backup made behind the console (full, or incremental on `base`), waited for. */
function backup(api: StoreApi, name: string, base?: string): Promise<string> {
  return madeBackup(api, TREE, name, base);
}

test.describe('words on a phone', () => {
  test('at 390×844 no word is broken mid-letter: sign-in, catalog, backup diff, restore preview, operations', async ({
    page,
    tenant,
  }) => {
    await page.setViewportSize(PHONE);
    await page.goto('/sign-in');
    await expect(page.getByLabel('API token')).toBeVisible();
    expect(await brokenWords(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/i33-small-sign-in-phone.png', fullPage: true });

    await put(tenant.api, { customers: { n: 1 }, unchanged: { n: 2 }, removed: { n: 3 } });
    const full = await backup(tenant.api, 'monday full');
    await put(tenant.api, { customers: { n: 10 }, added: { n: 4 } });
    await tenant.api.data.deleteEntry({ treeId: TREE, key: 'removed' });
    await backup(tenant.api, 'tuesday incremental', full);

    await page.setViewportSize({ width: 1440, height: 900 });
    await signInWithToken(page, tenant.admin.token);
    await page.setViewportSize(PHONE);

    const compare = new BackupComparePage(page);
    await compare.compareFromCatalog('monday full', 'tuesday incremental');
    await expect(readCounts(compare.main)).resolves.toMatchObject({ Unchanged: 1 });
    expect(await brokenWords(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/i33-small-diff-phone.png', fullPage: true });

    const restore = new RestoreDialog(page, 'monday full');
    await restore.openInPlace(full);
    await expect(readCounts(restore.preview)).resolves.toMatchObject({ Unchanged: 1 });
    expect(await brokenWords(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/i33-small-restore-preview-phone.png' });
    await page.keyboard.press('Escape');

    await page.goto('/backups');
    await expect(page.getByRole('link', { name: 'monday full', exact: true })).toBeVisible();
    expect(await brokenWords(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/i33-small-catalog-phone.png', fullPage: true });

    await page.goto('/operations');
    await expect(page.locator('.badge', { hasText: 'Succeeded' }).first()).toBeVisible();
    expect(await brokenWords(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/shots/i33-small-operations-phone.png', fullPage: true });
  });
});
