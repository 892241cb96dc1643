import { ConnectError } from '@connectrpc/connect';
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

  // Delete is not offered on it: disabled, saying by whom and why; the server refuses it too,
  // naming the backup and the protection in words (no ISO stamp, no token id).
  await page.goto(`/backups/${ids[3]}`);
  const remove = page.getByRole('button', { name: 'Delete', exact: true });
  await expect(remove).toBeDisabled();
  await expect(
    page.getByText(/^Protected by .+ — “legal hold 7”\. Unprotect it to delete it\.$/),
  ).toBeVisible();
  const refusal = await tenant.api.backup.deleteBackup({ backupId: ids[3]! }).then(
    () => 'deleted',
    (error: unknown) => ConnectError.from(error).rawMessage,
  );
  expect(refusal).toMatch(
    new RegExp(
      `^backup “${TREE} full 4” is protected by .+ since \\d{1,2} \\w{3} \\d{4}, \\d\\d:\\d\\d UTC \\(legal hold 7\\); unprotect it before deleting it$`,
    ),
  );
  expect(refusal).not.toMatch(/\d{4}-\d\d-\d\dT/);
  expect((await tenant.api.backup.listBackups({ treeId: TREE })).backups).toHaveLength(2);

  await protection.unprotect('hold released');
  await page.goto('/backups');
  await expect(page.getByTestId('backup-row')).toHaveCount(2);
  await expect(page.getByTestId('lock-badge')).toHaveCount(0);
});

test('automatic retention is a choice at save: off for new rules; turning it on shows what the rules delete now, "Not now" saves nothing, confirming saves it and deletes nothing yet', async ({
  page,
  tenant,
}, testInfo) => {
  test.setTimeout(120_000);
  const ids = await seedFulls(tenant.api);
  await signInWithToken(page, tenant.admin.token);
  const retention = new RetentionPage(page);
  await retention.open(TREE);
  await expect(retention.autoApply).not.toBeChecked();

  await retention.setCount('Keep last', '1');
  await retention.autoApply.check();
  await retention.rules.getByRole('button', { name: 'Save rules' }).click();
  const confirm = retention.autoApplyConfirm;
  const now = confirm.getByTestId('auto-apply-now');
  await expect(now).toContainText(/Now, they would delete 3 backups \(.+\); 1 backup kept/);
  for (const n of [1, 2, 3]) await expect(now).toContainText(`${TREE} full ${n}`);
  await expect(now).not.toContainText(`${TREE} full 4`);
  await expect(confirm).toContainText('stops and deletes nothing');
  await expectNoSeriousA11yViolations(page, testInfo);
  await screenshotBothSizes(page, 'auto-apply-confirm');

  // Not now: nothing saved, the draft stays.
  await confirm.getByRole('button', { name: 'Not now' }).click();
  await expect(confirm).toBeHidden();
  await expect(retention.rules).toContainText('No rules yet');
  await expect(retention.autoApply).toBeChecked();

  await retention.rules.getByRole('button', { name: 'Save rules' }).click();
  await confirm.getByRole('button', { name: 'Save and apply after each backup' }).click();
  await expect(page.getByRole('heading', { name: 'Preview of the saved rules' })).toBeVisible();
  await expect(
    page.getByText('They apply by themselves after each scheduled backup.'),
  ).toBeVisible();
  // Saving deleted nothing: the rules run after the next scheduled backup (or an apply).
  expect((await tenant.api.backup.listBackups({ treeId: TREE })).backups).toHaveLength(ids.length);
  await page.reload();
  await expect(retention.rules).toContainText('Saved');
  await expect(retention.autoApply).toBeChecked();

  // Once on, other changes save without asking again.
  await retention.setCount('Keep last', '2');
  await retention.save();
  await expect(confirm).toBeHidden();
});
