import { capturedBackupId } from './pages/backup-names';
import { OperationsTray } from './pages/operations-tray';
import { ProtectionPanel, RetentionPage, screenshotBothSizes } from './pages/retention-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';

const TREE = 'inventory';

/** Four full backups of one tree, oldest first, named "inventory full 1" … "inventory full 4". */
async function seedFulls(api: StoreApi): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 1; i <= 4; i++) {
    await api.data.putEntry({ treeId: TREE, key: `item-${i}`, valueJson: `{"n":${i}}` });
    const started = await api.backup.startBackup({
      name: `${TREE} full ${i}`,
      scope: { treeId: TREE },
    });
    ids.push(await capturedBackupId(api, started.operationId));
  }
  return ids;
}

test('retention: keep-last 2 previewed live with keep reasons, applied, two left; a protected backup shows a lock, refuses Delete naming the protection, and is unprotected', async ({
  page,
  tenant,
}, testInfo) => {
  test.setTimeout(120_000);
  const ids = await seedFulls(tenant.api);
  await signInWithToken(page, tenant.admin.token);
  const retention = new RetentionPage(page);
  await retention.open(TREE);
  await expect(retention.preview).toContainText('0 to delete');

  // The live preview follows the form before anything is saved.
  await retention.setCount('Keep last', '2');
  await expect(
    page.getByRole('heading', { name: 'Preview of these rules (not saved)' }),
  ).toBeVisible();
  await expect(retention.deletions).toHaveCount(2);
  const deleted = page.getByRole('table', { name: 'Would be deleted' });
  await expect(deleted).toContainText(`${TREE} full 1`);
  await expect(deleted).toContainText(`${TREE} full 2`);
  await expect(retention.kept).toHaveCount(2);
  await expect(retention.kept.nth(0)).toContainText(`${TREE} full 4`);
  // One phrase per reason, not the kind and then the same words again ("Last · last 1 of 2").
  await expect(retention.kept.nth(0).getByTestId('keep-reasons')).toHaveText('Last 1 of 2');
  await expect(retention.kept.nth(1).getByTestId('keep-reasons')).toHaveText('Last 2 of 2');
  // Unsaved rules cannot be applied; the reason is on screen.
  await expect(retention.preview).toContainText('Save rules first');
  await expectNoSeriousA11yViolations(page, testInfo);
  await screenshotBothSizes(page, 'section');

  await retention.save();
  await retention.apply(/^Delete 2 backups \(.+\)$/);
  const left = await tenant.api.backup.listBackups({ treeId: TREE });
  expect(left.backups.map((b) => b.backupId).sort()).toEqual([ids[2], ids[3]].sort());

  // Its result, said where every tracked operation is: beside the button, in the tray, on the
  // Operations page (the id copyable) and on its own page (what went, by name).
  const brief = /Deleted 2 backups, [\d.]+ (B|KiB) freed; 2 kept/;
  const progress = page.getByTestId('retention-progress');
  await expect(progress).toContainText(brief);
  const tray = new OperationsTray(page);
  await tray.open();
  await expect(tray.root).toContainText(brief);
  await tray.close();
  const operationId = ((await progress.getByRole('link').textContent()) ?? '').replace(
    /^operation /,
    '',
  );
  await page.goto('/operations');
  const row = page.getByRole('row').filter({ hasText: operationId });
  await expect(row).toContainText('Retention apply');
  await expect(row).toContainText(brief);
  await expect(row.getByRole('button', { name: `Copy operation id ${operationId}` })).toBeVisible();
  await screenshotBothSizes(page, 'operations-list');
  await row.getByRole('link', { name: new RegExp(operationId) }).click();
  const summary = page.getByTestId('retention-apply-summary');
  await expect(summary).toContainText('applied from a preview');
  await expect(summary).toContainText('2 backups');
  await expect(summary).toContainText(`${TREE} full 1`);
  await expect(summary).toContainText(`${TREE} full 2`);
  await expect(summary.getByRole('button', { name: `Copy backup id ${ids[0]}` })).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
  await screenshotBothSizes(page, 'apply-operation');
  await page.goto('/backups');
  await expect(page.getByTestId('backup-row')).toHaveCount(2);

  // Protect the newest: a lock in the catalog, and Delete refused naming the protection.
  await page.goto(`/backups/${ids[3]}`);
  const protection = new ProtectionPanel(page);
  await protection.protect('legal hold 7');
  await expect(protection.panel).toContainText('Since');
  await expect(protection.panel).toContainText('By');
  await screenshotBothSizes(page, 'backup-detail');
  await page.goto('/backups');
  const newest = page.getByTestId('backup-row').filter({ hasText: `${TREE} full 4` });
  await expect(newest.getByTestId('lock-badge')).toBeVisible();
  await expect(page.getByTestId('lock-badge')).toHaveCount(1);

  await page.goto(`/backups/${ids[3]}`);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const remove = page.getByRole('dialog', { name: 'Delete this backup?' });
  await remove.getByRole('button', { name: 'Delete backup' }).click();
  await expect(remove).toContainText('legal hold 7');
  await expect(remove).toContainText('protected by');
  await remove.getByRole('button', { name: 'Keep it' }).click();
  expect((await tenant.api.backup.listBackups({ treeId: TREE })).backups).toHaveLength(2);

  await protection.unprotect('hold released');
  await page.goto('/backups');
  await expect(page.getByTestId('backup-row')).toHaveCount(2);
  await expect(page.getByTestId('lock-badge')).toHaveCount(0);
});
