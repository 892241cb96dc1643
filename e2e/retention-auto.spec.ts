import { StoreOperationState, durationFromMs } from '@store/contract';
import { AuditPage } from './pages/audit-page';
import { capturedBackupId, finishedState } from './pages/backup-names';
import { OperationsTray } from './pages/operations-tray';
import { RetentionPage, screenshotBothSizes } from './pages/retention-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test } from './support/fixtures';

const TREE = 'ledger';

// The admin's walk of automatic retention: rules that would delete the one verified backup are
// turned on at save (after seeing that), a real schedule fires (the stack's scheduler minimum is
// 60 s), and the apply that runs by itself stops instead, seen in the tray, on the Operations
// pages and in the audit trail, in words.
test('an automatic retention apply that would delete the newest verified backup stops: the tray, the Operations pages and the audit trail say why, and nothing is deleted', async ({
  page,
  tenant,
}, testInfo) => {
  test.setTimeout(240_000);
  const api = tenant.api;
  const ids: string[] = [];
  for (let i = 1; i <= 3; i++) {
    await api.data.putEntry({ treeId: TREE, key: `row-${i}`, valueJson: `{"n":${i}}` });
    const started = await api.backup.startBackup({
      name: `${TREE} full ${i}`,
      scope: { treeId: TREE },
    });
    ids.push(await capturedBackupId(api, started.operationId));
  }
  // Only the oldest is verified healthy: it is the newest healthy backup a check vouched for.
  const check = await api.backup.startBackupHealthCheck({ backupId: ids[0]! });
  expect(await finishedState(api, check.operationId)).toBe(StoreOperationState.SUCCEEDED);

  await signInWithToken(page, tenant.admin.token);
  const retention = new RetentionPage(page);
  await retention.open(TREE);
  await retention.setCount('Keep last', '2');
  await retention.autoApply.check();
  await retention.rules.getByRole('button', { name: 'Save rules' }).click();
  await expect(retention.autoApplyConfirm.getByTestId('auto-apply-now')).toContainText(
    `${TREE} full 1`,
  );
  await retention.autoApplyConfirm
    .getByRole('button', { name: 'Save and apply after each backup' })
    .click();
  await expect(page.getByRole('heading', { name: 'Preview of the saved rules' })).toBeVisible();

  // A real schedule: its first capture comes within about a minute, then retention runs.
  await api.backup.scheduleBackup({
    scope: { treeId: TREE },
    incremental: false,
    interval: durationFromMs(60_000),
  });
  try {
    await page.goto('/operations');
    const toast = page
      .locator('.toast')
      .filter({ hasText: 'Retention apply succeeded — stopped, nothing deleted' });
    await expect(toast).toBeVisible({ timeout: 150_000 });
    await expect(toast).toHaveClass(/toast--warning/);
    await expect(toast).toContainText(`“${TREE} full 1”`);
  } finally {
    await api.backup.cancelSchedule({ scope: { treeId: TREE } });
  }
  // The capture happened; the apply deleted nothing.
  const left = (await api.backup.listBackups({ treeId: TREE })).backups;
  expect(left).toHaveLength(4);
  expect(left.map((b) => b.backupId)).toEqual(expect.arrayContaining(ids));

  await page.setViewportSize({ width: 1440, height: 900 });
  const tray = new OperationsTray(page);
  await tray.open();
  await expect(tray.root).toContainText('Succeeded — stopped, nothing deleted');
  await page.screenshot({ path: '/tmp/shots/i33-auto-tray-1440.png', fullPage: false });
  await tray.close();

  await page.reload();
  const row = page.getByRole('row').filter({ hasText: 'Retention apply' }).first();
  await expect(row).toContainText('Succeeded — stopped, nothing deleted');
  await expect(row).toContainText('Automatic retention');
  await row.getByRole('link').first().click();
  const summary = page.getByTestId('retention-apply-summary');
  await expect(summary.getByTestId('retention-stopped-reason')).toContainText(
    `the rules would have deleted “${TREE} full 1”, the newest backup of tree ${TREE} a health check found healthy`,
  );
  await expect(summary).toContainText(`run by itself after the scheduled full capture “`);
  await expectNoSeriousA11yViolations(page, testInfo);
  await screenshotBothSizes(page, 'auto-apply-stopped');

  const audit = new AuditPage(page);
  await audit.open();
  await audit.filterMethod('RetentionApplyStopped');
  const record = audit.row(/Retention apply stopped/);
  await expect(record).toHaveCount(1);
  const detail = await audit.openDetail(record);
  await expect(detail).toContainText(`“${TREE} full 1”`);
  await expect(detail).toContainText('after the scheduled full capture');
  await expect(detail).not.toContainText(ids[0]!);
});
