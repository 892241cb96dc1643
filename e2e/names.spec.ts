import { StoreOperationState, StoreRestoreMode } from '@store/contract';
import { finishedState, seedNamedChain } from './pages/backup-names';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, issueToken, signInWithToken, storeApi, test } from './support/fixtures';

const TREE = 'customers';
const NAMES = { full: 'customers full baseline', incremental: 'customers evening delta' };

test.describe('names, not ids', () => {
  test('a backup page names its chain, breadcrumb and creator; ids sit below with a copy button', async ({
    page,
    tenant,
  }, testInfo) => {
    const { fullId, incrementalId } = await seedNamedChain(tenant.api, TREE, NAMES);
    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/backups/${incrementalId}`);

    const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(crumbs.getByRole('link', { name: 'Backups' })).toHaveAttribute('href', '/backups');
    await expect(crumbs.locator('[aria-current="page"]')).toHaveText(NAMES.incremental);

    const chain = page.getByRole('list', { name: 'Restore chain, full backup first' });
    const fullLink = chain.getByRole('link', { name: NAMES.full });
    await expect(fullLink).toHaveAttribute('href', `/backups/${fullId}`);
    await expect(chain).toContainText(`${NAMES.incremental} (this backup)`);
    await expect(chain.getByText(fullId)).toBeVisible();
    await expect(chain.getByRole('button', { name: `Copy backup id ${fullId}` })).toBeVisible();

    // The creator is the signed-in token, named as WhoAmI names it.
    const facts = page.getByRole('region', { name: 'Manifest' });
    await expect(facts).toContainText('(you)');
    await expect(facts).toContainText(`token:${tenant.admin.id}`);

    // The copy button puts the id on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page
      .getByRole('button', { name: `Copy backup id ${incrementalId}` })
      .first()
      .click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(incrementalId);
    await expectNoSeriousA11yViolations(page, testInfo);

    // The compare header names both sides.
    await page.goto(`/backups/compare?from=${fullId}&to=${incrementalId}`);
    const header = page.locator('.page-header');
    await expect(header.getByRole('link', { name: NAMES.full })).toBeVisible();
    await expect(header.getByRole('link', { name: NAMES.incremental })).toBeVisible();
  });

  test("a restore's operation names the tree it wrote and the backup it read; By names the token", async ({
    page,
    tenant,
  }) => {
    const { fullId } = await seedNamedChain(tenant.api, TREE, NAMES);
    // Another token of the tenant, with a name, starts the restore.
    const laptop = issueToken(tenant.name, ['admin'], 'ops laptop');
    const restore = await storeApi(laptop.token, tenant.name).backup.startRestore({
      backupId: fullId,
      mode: StoreRestoreMode.NEW_TREE,
      targetTreeId: 'customers-copy',
    });
    expect(await finishedState(tenant.api, restore.operationId)).toBe(
      StoreOperationState.SUCCEEDED,
    );
    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/operations/${restore.operationId}`);
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(
      'Restore operation',
    );
    const facts = page.getByRole('region', { name: /^Status/ });
    await expect(facts.getByRole('link', { name: 'tree customers-copy' })).toHaveAttribute(
      'href',
      '/trees/customers-copy',
    );
    await expect(facts.getByRole('link', { name: NAMES.full })).toBeVisible();
    await expect(facts).toContainText('ops laptop');
    await expect(facts).toContainText(`token:${laptop.id}`);

    await page.goto('/operations');
    const row = page.getByRole('row').filter({ hasText: 'Restore' }).first();
    await expect(row.getByRole('link', { name: 'tree customers-copy' })).toBeVisible();
    await expect(row).toContainText('ops laptop');
    // The captures were the signed-in admin's own.
    const capture = page.getByRole('row').filter({ hasText: 'Incremental backup' }).first();
    await expect(capture).toContainText('e2e (you)');
  });
});
