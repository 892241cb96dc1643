import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BackupHealthStatus,
  StoreOperationState,
  StoreRestoreMode,
  type StoreOperationStatus,
} from '@store/contract';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';
import { expectNoSeriousA11yViolations } from './support/axe';
import { CatalogGrowthPanel } from './pages/catalog-growth';
import { RetentionPage } from './pages/retention-page';

const TREE = 'ledger';

/** Polls a backup operation until it is terminal (the console is not involved here). */
async function finished(api: StoreApi, operationId: string): Promise<StoreOperationStatus> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { status } = await api.backup.getBackupOperationStatus({ operationId });
    if (
      status &&
      [
        StoreOperationState.SUCCEEDED,
        StoreOperationState.FAILED,
        StoreOperationState.CANCELLED,
      ].includes(status.state)
    ) {
      return status;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`operation ${operationId} did not finish within 20 s`);
}

/** The artifact dir (E2E_ARTIFACT_DIR; shared by the replicas behind Envoy) holds <tenant>/<backup>/. */
function flipOneByte(tenant: string, backupId: string, artifactId: string): void {
  const dataDir = process.env.E2E_DATA_DIR;
  const artifactDir = process.env.E2E_ARTIFACT_DIR ?? (dataDir && join(dataDir, 'artifacts'));
  if (!artifactDir) throw new Error('E2E_ARTIFACT_DIR is not set: this test corrupts a file');
  const path = join(artifactDir, tenant, backupId, `${artifactId}.ndjson.gz`);
  const bytes = readFileSync(path);
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
  writeFileSync(path, bytes);
}

test('the dashboard shows an empty tenant as all clear', async ({ page, tenant }, testInfo) => {
  await signInWithToken(page, tenant.admin.token);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('No operation failed in the last 24 hours')).toBeVisible();
  // Nothing was ever checked: the zero is said, but not as good news.
  await expect(page.getByText('No checked backup is corrupt or missing')).toBeVisible();
  await expect(page.getByText('No tree holds dead letters')).toBeVisible();
  await expect(page.getByText('No backup in the last 30 days')).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
});

test('the dashboard lists a corrupt backup and the restore that failed on it', async ({
  page,
  tenant,
}, testInfo) => {
  const api = tenant.api;
  await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      api.data.putEntry({ treeId: TREE, key: `row-${i}`, valueJson: `{"amount":${i}}` }),
    ),
  );
  const capture = await finished(
    api,
    (await api.backup.startBackup({ name: 'nightly', scope: { treeId: TREE } })).operationId,
  );
  expect(capture.state).toBe(StoreOperationState.SUCCEEDED);
  if (capture.result.case !== 'capture') throw new Error('the capture has no result');
  const manifest = capture.result.value.manifest;
  const backupId = capture.result.value.backupId;
  const artifactId = manifest?.artifacts[0]?.artifactId;
  if (!artifactId) throw new Error('the backup has no artifact');

  // Damage the stored artifact, then let the server find out: a health check, and a restore.
  flipOneByte(tenant.name, backupId, artifactId);
  await finished(api, (await api.backup.startBackupHealthCheck({ backupId })).operationId);
  const { backups } = await api.backup.listBackups({ healthStatus: BackupHealthStatus.CORRUPT });
  expect(backups.map((backup) => backup.backupId)).toEqual([backupId]);
  const restore = await finished(
    api,
    (
      await api.backup.startRestore({
        backupId,
        mode: StoreRestoreMode.NEW_TREE,
        targetTreeId: `${TREE}-copy`,
      })
    ).operationId,
  );
  expect(restore.state).toBe(StoreOperationState.FAILED);

  await signInWithToken(page, tenant.admin.token);
  const failed = page.getByRole('region', { name: /Failed in the last 24 hours/ });
  const failedRow = failed.getByRole('row', { name: new RegExp(restore.operationId) });
  await expect(failedRow).toBeVisible();
  await expect(failedRow).toContainText('DataLoss');
  // The first link is the operation's; the target (the backup it read) is named and linked too.
  await expect(failedRow.getByRole('link').first()).toHaveAttribute(
    'href',
    `/operations/${restore.operationId}`,
  );

  const corrupt = page.getByRole('region', { name: /Corrupt or missing backups/ });
  const corruptRow = corrupt.getByRole('row', { name: new RegExp(backupId) });
  await expect(corruptRow).toContainText('Corrupt');
  await expect(corruptRow.getByRole('link', { name: new RegExp(backupId) })).toHaveAttribute(
    'href',
    `/backups/${backupId}`,
  );

  // The charts draw what the tenant did: one tree's backups and the finished operations.
  await expect(
    page.getByRole('img', { name: new RegExp(`^Tree ${TREE}: 1 backup in 30 days`) }),
  ).toBeVisible();
  await expect(
    page.getByRole('img', { name: /3 operations finished in the last 24 hours/ }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
});

test('catalog growth: backups and stored bytes per tree over 30 days, and what retention freed', async ({
  page,
  tenant,
}, testInfo) => {
  test.setTimeout(120_000);
  const api = tenant.api;
  for (const [tree, count] of [
    ['inventory', 3],
    [TREE, 1],
  ] as const) {
    for (let i = 1; i <= count; i++) {
      await api.data.putEntry({ treeId: tree, key: `item-${i}`, valueJson: `{"n":${i}}` });
      const started = await api.backup.startBackup({
        name: `${tree} ${i}`,
        scope: { treeId: tree },
      });
      expect((await finished(api, started.operationId)).state).toBe(StoreOperationState.SUCCEEDED);
    }
  }
  await signInWithToken(page, tenant.admin.token);
  const growth = new CatalogGrowthPanel(page);
  await expect(growth.freed).toContainText('Retention freed, last 24 hoursnothing');

  // Retention keeps inventory's newest backup: two go, and the dashboard says what they freed.
  const retention = new RetentionPage(page);
  await retention.open('inventory');
  await retention.setCount('Keep last', '1');
  await retention.save();
  await retention.apply(/^Delete 2 backups \(.+\)$/);

  await page.goto('/');
  await expect(growth.freed).toContainText(/Retention freed, last 24 hours\S+ \S+ in 2 backups/);
  await expect(growth.freed).toContainText(/Retention freed, last 30 days\S+ \S+ in 2 backups/);
  // Today's end: one backup per tree; both trees grew from nothing within the window.
  await expect(
    growth.total.getByRole('img', {
      name: /^All trees: 2 backups, .+ stored now; \+2 backups, \+/,
    }),
  ).toBeVisible();
  await expect(growth.trees).toHaveCount(2);
  await expect(
    growth.region.getByRole('img', {
      name: /^Tree inventory: 1 backup, .+ stored now; \+1 backup, \+/,
    }),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page, testInfo);
  await growth.screenshotBothSizes();
});
