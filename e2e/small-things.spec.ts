import { StoreOperationState, StoreSchemaMode } from '@store/contract';
import { OperationDetailPage } from './pages/operation-detail-page';
import {
  expect,
  issueToken,
  signInWithToken,
  storeApi,
  test,
  type StoreApi,
} from './support/fixtures';
import { seedLargeTree } from './support/large-tree';

const SIZES = [
  { name: 'wide', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Waits until a backup operation is terminal and returns its state. */
async function finished(api: StoreApi, operationId: string): Promise<StoreOperationState> {
  for (let i = 0; i < 400; i++) {
    const { status } = await api.backup.getBackupOperationStatus({ operationId });
    if (status && status.state >= StoreOperationState.SUCCEEDED) return status.state;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`operation ${operationId} did not finish`);
}

test.describe('small things found on the walk', () => {
  for (const size of SIZES) {
    test(`sign-in, empty trees and a missing tree say what to do (${size.name})`, async ({
      page,
      tenant,
    }) => {
      await page.setViewportSize(size);
      await page.goto('/sign-in');
      const hint = page.getByTestId('token-source-hint');
      await expect(hint).toContainText('The first npm start on an empty data directory prints');
      await expect(hint).toContainText('npm run token -- create --tenant <tenant>');
      await page.screenshot({ path: `/tmp/shots/small-sign-in-${size.name}.png`, fullPage: true });

      // The sign-in helper waits for the main navigation, folded into a menu on a phone.
      await page.setViewportSize(SIZES[0]);
      await signInWithToken(page, tenant.admin.token);
      await page.setViewportSize(size);
      await page.goto('/trees');
      const empty = page.locator('.empty-state');
      await expect(empty).toContainText('No trees yet');
      await expect(empty).toContainText('Start by importing a JSON Lines file');
      await page.screenshot({ path: `/tmp/shots/small-trees-empty-${size.name}.png` });
      await empty.getByRole('button', { name: 'Import a file' }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.keyboard.press('Escape');

      await page.goto('/trees/no-such-tree');
      await expect(page.getByText('No tree named “no-such-tree”')).toBeVisible();
      await expect(page.getByText('No entries')).toHaveCount(0);
      await page.screenshot({ path: `/tmp/shots/small-tree-missing-${size.name}.png` });
      await page.getByRole('link', { name: 'See the tenant’s trees' }).click();
      await expect(page).toHaveURL(/\/trees$/);

      // Start backup with no tree explains and links to Trees.
      await page.goto('/backups');
      await page.getByRole('button', { name: 'Start backup' }).click();
      const notice = page.getByTestId('no-trees-to-back-up');
      await expect(notice).toContainText('has no tree to back up yet');
      await page.screenshot({ path: `/tmp/shots/small-backup-no-trees-${size.name}.png` });
      await notice.getByRole('link', { name: 'Trees page' }).click();
      await expect(page).toHaveURL(/\/trees$/);
    });
  }

  test('the incremental dialog preselects the newest backup of the tree as its base', async ({
    page,
    tenant,
  }) => {
    await tenant.api.data.putEntry({ treeId: 'orders', key: 'a', valueJson: '{"n":1}' });
    for (const name of ['older full', 'newest full']) {
      const handle = await tenant.api.backup.startBackup({ name, scope: { treeId: 'orders' } });
      expect(await finished(tenant.api, handle.operationId)).toBe(StoreOperationState.SUCCEEDED);
      await tenant.api.data.putEntry({ treeId: 'orders', key: name, valueJson: '{"n":2}' });
    }
    const { backups } = await tenant.api.backup.listBackups({ treeId: 'orders' });
    const newest = backups.find((b) => b.name === 'newest full');
    expect(newest).toBeDefined();

    await signInWithToken(page, tenant.admin.token);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto('/backups');
      await page.getByRole('button', { name: 'Start backup' }).click();
      const dialog = page.getByRole('dialog', { name: 'Start a backup' });
      await dialog.getByRole('radio', { name: 'Incremental' }).check();
      await dialog.getByLabel('Tree', { exact: true }).selectOption('orders');
      await expect(dialog.getByLabel('Base backup')).toHaveValue(newest?.backupId ?? '');
      await page.screenshot({ path: `/tmp/shots/small-incremental-base-${size.name}.png` });
      await page.keyboard.press('Escape');
    }

    // The backup's facts in words: its changes and its entries.
    await page.goto(`/backups/${newest?.backupId ?? ''}`);
    await expect(page.getByText(/^every change up to sequence \d/)).toBeVisible();
    await expect(page.getByText(/^\d+ entr(y|ies)$/).first()).toBeVisible();
    await page.screenshot({ path: `/tmp/shots/small-backup-facts-phone.png`, fullPage: true });
  });

  test("the dashboard's dead-letter link lands on the tree's Dead letters section", async ({
    page,
    tenant,
  }) => {
    // A tree with an entry, then a write its enforced policy refuses; the schema page has five
    // sections above the dead letters, so landing on them takes the scroll the link asks for.
    await tenant.api.data.putEntry({ treeId: 'profiles', key: 'ada', valueJson: '{"name":"A"}' });
    await tenant.api.schema.setPolicy({
      treeId: 'profiles',
      policy: {
        jsonSchema: JSON.stringify({ required: ['name'] }),
        version: 1,
        mode: StoreSchemaMode.ENFORCE,
      },
    });
    const refused = await tenant.api.data.putEntry({
      treeId: 'profiles',
      key: 'nameless',
      valueJson: '{"age":3}',
    });
    expect(refused.deadLettered).toBe(true);

    await signInWithToken(page, tenant.admin.token);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.goto('/');
      const section = page.getByRole('region', { name: /Trees with dead letters/ });
      await section.getByRole('link', { name: 'Review dead letters of profiles' }).click();
      await expect(page).toHaveURL(/\/schema\/profiles#schema-dead-letters$/);
      const letters = page.getByRole('region', { name: /^Dead letters/ });
      await expect(letters.getByRole('heading', { name: /^Dead letters/ })).toBeInViewport();
      await expect(
        letters.getByRole('button', { name: 'View dead letter nameless' }),
      ).toBeVisible();
      await page.screenshot({ path: `/tmp/shots/small-dead-letter-link-${size.name}.png` });
    }
  });

  test('a cancel by another token reads "Cancelled by <its name>"', async ({ page, tenant }) => {
    const nightShift = issueToken(tenant.name, ['operator'], 'night shift');
    const operator = storeApi(nightShift.token, tenant.name);
    await seedLargeTree(tenant.api, tenant.name, 'busy', 20_000);
    const handle = await tenant.api.backup.startBackup({
      name: 'long',
      scope: { treeId: 'busy' },
      maxEntriesPerSecond: 200,
    });
    const { status } = await operator.backup.cancelBackupOperation({
      operationId: handle.operationId,
    });
    expect(status?.cancelledBy).toBe(`token:${nightShift.id}`);
    expect(await finished(tenant.api, handle.operationId)).toBe(StoreOperationState.CANCELLED);

    // The admin's console names the canceller, although this tab did not cancel it.
    await signInWithToken(page, tenant.admin.token);
    const detail = new OperationDetailPage(page);
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await detail.open(handle.operationId);
      await expect(detail.outcome('Cancelled')).toContainText(
        'Cancelled by night shift before it finished.',
      );
      await page.screenshot({ path: `/tmp/shots/small-cancelled-by-${size.name}.png` });
    }
  });
});
