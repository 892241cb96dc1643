import { mkdirSync } from 'node:fs';
import {
  durationFromMs,
  StoreOperationKind,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import type { Page } from '@playwright/test';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Polls until `read` returns a terminal operation. */
async function terminal(
  read: () => Promise<StoreOperationStatus | undefined>,
): Promise<StoreOperationStatus> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const status = await read();
    if (status && status.state >= StoreOperationState.SUCCEEDED) return status;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('operation did not finish within 30 s');
}

async function capture(api: StoreApi, treeId: string): Promise<string> {
  const handle = await api.backup.startBackup({ name: `${treeId} full`, scope: { treeId } });
  const status = await terminal(
    async () =>
      (await api.backup.getBackupOperationStatus({ operationId: handle.operationId })).status,
  );
  if (status.result.case !== 'capture') throw new Error(status.error?.message ?? 'no backup');
  return status.result.value.backupId;
}

/** The page at both sizes, saved as /tmp/shots/27c-<name>-<size>.png; ends at the wide size. */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync('/tmp/shots', { recursive: true });
  for (const [size, viewport] of [
    ['390', PHONE],
    ['1440', WIDE],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(300);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${name} at ${size} px is no wider than the screen`).toBeLessThanOrEqual(
      viewport.width,
    );
    await page.screenshot({ path: `/tmp/shots/27c-${name}-${size}.png`, fullPage: true });
  }
}

test('dashboard totals match a known data set; the fleet table sorts; verify stale backups runs to done', async ({
  page,
  tenant,
}, testInfo) => {
  const api = tenant.api;
  await api.data.putEntry({ treeId: 'alpha', key: 'a1', valueJson: '{"n":1}' });
  await api.data.putEntry({ treeId: 'alpha', key: 'a2', valueJson: '{"n":2}' });
  await api.data.putEntry({ treeId: 'beta', key: 'b1', valueJson: '{"n":3}' });
  await api.data.putEntry({ treeId: 'gamma', key: 'g1', valueJson: '{"n":4}' });
  const alpha1 = await capture(api, 'alpha');
  await capture(api, 'alpha');
  await capture(api, 'beta');
  await api.backup.scheduleBackup({
    scope: { treeId: 'alpha' },
    incremental: false,
    interval: durationFromMs(3_600_000),
  });
  const check = await api.backup.startBackupHealthCheck({ backupId: alpha1 });
  await terminal(
    async () =>
      (await api.backup.getBackupOperationStatus({ operationId: check.operationId })).status,
  );

  await page.setViewportSize(WIDE);
  await signInWithToken(page, tenant.admin.token);
  const glance = page.getByRole('region', { name: 'At a glance' });
  const tile = (id: string) => glance.locator(`[data-tile="${id}"]`);
  await expect(tile('trees')).toContainText('3');
  await expect(tile('backups')).toContainText('3');
  await expect(tile('succeeded')).toContainText('3');
  await expect(tile('failed')).toContainText('0');
  await expect(tile('unprotected')).toContainText('2');
  await expect(tile('unverified')).toContainText('2');
  await expect(tile('unverified')).toContainText('2 never verified, 0 older than 7 days');
  // Nothing corrupt among the one backup checked: a zero, but not a green one.
  await expect(tile('unhealthy')).toContainText('0');
  await expect(tile('unhealthy')).toContainText('Only 1 of 3 backups verified within 7 days');
  await expect(tile('unhealthy')).toHaveClass(/glance__tile--neutral/);
  const unprotected = page.getByRole('region', { name: /Unprotected trees/ });
  await expect(unprotected.getByRole('row', { name: /beta/ })).toContainText('No schedule');
  await expect(unprotected.getByRole('row', { name: /gamma/ })).toContainText('No schedule');
  await expect(unprotected.getByRole('row', { name: /alpha/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page, testInfo);
  await shoot(page, 'dashboard');

  await page.goto('/health');
  const fleet = page.getByRole('region', { name: 'Every backup' });
  const rows = fleet.getByRole('row').filter({ hasNot: page.getByRole('columnheader') });
  await expect(rows).toHaveCount(3);
  // Worst first: the two never verified, then the healthy one.
  await expect(rows.nth(2)).toHaveAttribute('data-backup', alpha1);
  await expect(rows.nth(0)).toContainText('Never verified');
  await fleet.getByRole('button', { name: /Last verdict/ }).click();
  await expect(fleet.getByRole('columnheader', { name: /Last verdict/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect(rows.nth(0)).toHaveAttribute('data-backup', alpha1);
  await expect(rows.nth(0)).toContainText('Healthy');

  const verify = page.getByRole('region', { name: 'Verify stale backups' });
  await verify.getByLabel(/Not verified within/).fill('7');
  await verify.getByRole('button', { name: 'Verify stale backups' }).click();
  await expect(verify.getByText('Succeeded')).toBeVisible({ timeout: 20_000 });
  await expect(verify).toContainText('2 healthy, 0 degraded, 0 corrupt, 0 missing');
  const runs = await api.backupInsight.listBackupInsightOperations({
    kinds: [StoreOperationKind.STALE_HEALTH_CHECK],
  });
  expect(runs.operations[0]?.progress).toMatchObject({ done: 2n, total: 2n, unit: 'backups' });
  // The verdicts it wrote reach the table without a reload.
  await expect(fleet.getByText('Never verified')).toHaveCount(0);
  await expect(fleet.getByText('Healthy')).toHaveCount(3);
  await expectNoSeriousA11yViolations(page, testInfo);
  await shoot(page, 'health');

  await page.goto('/');
  await expect(tile('unhealthy')).toHaveClass(/glance__tile--success/);
});

test('the operations page shows a restore preview and a policy dry-run with their summaries', async ({
  page,
  tenant,
}, testInfo) => {
  const api = tenant.api;
  await api.data.putEntry({ treeId: 'orders', key: 'o1', valueJson: '{"total":1}' });
  await api.data.putEntry({ treeId: 'orders', key: 'o2', valueJson: '{"total":"two"}' });
  const backupId = await capture(api, 'orders');
  await api.data.putEntry({ treeId: 'orders', key: 'o3', valueJson: '{"total":3}' });
  const preview = await api.backupInsight.startRestorePreview({ backupId });
  await terminal(
    async () =>
      (
        await api.backupInsight.getBackupInsightOperationStatus({
          operationId: preview.operationId,
        })
      ).status,
  );
  const dryRun = await api.schemaInsight.startPolicyDryRun({
    treeId: 'orders',
    jsonSchema: JSON.stringify({
      type: 'object',
      properties: { total: { type: 'number' } },
    }),
  });
  await terminal(async () => {
    const found = await api.schemaInsight.getSchemaInsightOperationStatus({
      operationId: dryRun.operationId,
    });
    return found.status as StoreOperationStatus | undefined;
  });

  await page.setViewportSize(WIDE);
  await signInWithToken(page, tenant.admin.token);
  await page.goto('/operations');
  const previewRow = page.getByRole('row', { name: new RegExp(preview.operationId) });
  await expect(previewRow).toContainText('Restore preview');
  await expect(previewRow).toContainText(/Compared 3 keys, 1 differ/);
  const dryRunRow = page.getByRole('row', { name: new RegExp(dryRun.operationId) });
  await expect(dryRunRow).toContainText('Policy dry run');
  await expect(dryRunRow).toContainText('3 entries checked, 1 would be refused');
  await expect(page.getByRole('row', { name: /Backup/ }).first()).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
  await shoot(page, 'operations');

  // The detail page of an insight operation says the same.
  await previewRow.getByRole('link').first().click();
  await expect(page.getByText(/Compared 3 keys, 1 differ/)).toBeVisible();
});
