import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test } from './support/fixtures';

test('check now reports HEALTHY live, and monitoring is configured with its clamp', async ({
  page,
  tenant,
}, testInfo) => {
  await tenant.api.data.putEntry({ treeId: 'ledger', key: 'k-1', valueJson: '{"v":1}' });
  await tenant.api.data.putEntry({ treeId: 'ledger', key: 'k-2', valueJson: '{"v":2}' });
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form seeds in one call
  const { backupId } = await tenant.api.backup.createBackup({
    name: 'ledger-full',
    scope: { treeId: 'ledger' },
  });

  await signInWithToken(page, tenant.admin.token);
  await page.goto('/health');
  await expect(page.getByText('Health monitoring on this server:')).toContainText('Available');
  await page.getByLabel('Backup', { exact: true }).selectOption(backupId);
  await expect(page).toHaveURL(new RegExp(`/health\\?backup=${backupId}$`));

  const report = page.getByRole('region', { name: /^Last report/ });
  // Said once in the report: its title, not again in the explanation.
  await expect(report.getByText(/never verified/i)).toHaveCount(1);
  await expectNoSeriousA11yViolations(page, testInfo);

  await page.getByRole('button', { name: 'Check now' }).click();
  // Followed live: the latest run ends SUCCEEDED and the stored report turns HEALTHY, no reload.
  const check = page.getByRole('region', { name: 'Check now' });
  await expect(check.getByText('Succeeded')).toBeVisible();
  await expect(report.getByText('Healthy')).toBeVisible();
  await expect(report).toContainText('Chain intact');
  const stored = await tenant.api.backup.getBackupHealth({ backupId });
  expect(stored.found).toBe(true);

  const monitoring = page.getByRole('region', { name: /^Monitoring/ });
  await expect(monitoring.getByText('Off')).toBeVisible();
  await monitoring.getByLabel('Verify this backup periodically').check();
  await monitoring.getByLabel('Check interval').fill('10');
  await monitoring.getByLabel('Unit').selectOption('seconds');
  await monitoring.getByRole('button', { name: 'Save monitoring' }).click();
  await expect(monitoring.getByText('Every 1 minute')).toBeVisible();
  await expect(monitoring.getByRole('status')).toContainText(
    'Clamped to 1 minute: the requested 10 seconds',
  );
  const configured = await tenant.api.backup.getBackupHealth({ backupId });
  expect(configured.config?.monitoringEnabled).toBe(true);
  expect(Number(configured.config?.interval?.seconds)).toBe(60);
  await expectNoSeriousA11yViolations(page, testInfo);
});
