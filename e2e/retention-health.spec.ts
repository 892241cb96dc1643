import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreOperationState } from '@store/contract';
import { capturedBackupId, finishedState } from './pages/backup-names';
import { RetentionPage } from './pages/retention-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test } from './support/fixtures';

const TREE = 'stock';

/** Flips a byte in the middle of each of a backup's artifact files (damage at rest). */
function corruptArtifacts(tenant: string, backupId: string): void {
  const dataDir = process.env.E2E_DATA_DIR;
  const artifactDir = process.env.E2E_ARTIFACT_DIR ?? (dataDir && join(dataDir, 'artifacts'));
  if (!artifactDir) throw new Error('E2E_ARTIFACT_DIR is not set: this test corrupts a file');
  const dir = join(artifactDir, tenant, backupId);
  const files = readdirSync(dir).filter((name) => name.endsWith('.ndjson.gz'));
  if (files.length === 0) throw new Error(`backup ${backupId} has no artifact file`);
  for (const name of files) {
    const bytes = readFileSync(join(dir, name));
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
    writeFileSync(join(dir, name), bytes);
  }
}

test('retention knows health: a corrupt newest backup is shown corrupt, kept by its own reason, and keep-last 2 keeps the two newest healthy ones', async ({
  page,
  tenant,
}, testInfo) => {
  test.setTimeout(120_000);
  const api = tenant.api;
  const ids: string[] = [];
  for (let i = 1; i <= 4; i++) {
    await api.data.putEntry({ treeId: TREE, key: `item-${i}`, valueJson: `{"n":${i}}` });
    const started = await api.backup.startBackup({
      name: `${TREE} full ${i}`,
      scope: { treeId: TREE },
    });
    ids.push(await capturedBackupId(api, started.operationId));
  }
  // "Verify" finds full 4 corrupt, full 3 healthy.
  corruptArtifacts(tenant.name, ids[3]!);
  for (const backupId of [ids[3]!, ids[2]!]) {
    const { operationId } = await api.backup.startBackupHealthCheck({ backupId });
    expect(await finishedState(api, operationId)).toBe(StoreOperationState.SUCCEEDED);
  }

  await signInWithToken(page, tenant.admin.token);
  const retention = new RetentionPage(page);
  await retention.open(TREE);
  await retention.setCount('Keep last', '2');
  await expect(retention.deletions).toHaveCount(1);
  await expect(retention.deletions.nth(0)).toContainText(`${TREE} full 1`);
  await expect(retention.deletions.nth(0).getByTestId('backup-health')).toHaveText('Not verified');
  await expect(retention.kept).toHaveCount(3);
  const corrupt = retention.kept.filter({ hasText: `${TREE} full 4` });
  await expect(corrupt.getByTestId('backup-health')).toContainText('Corrupt');
  await expect(corrupt.getByTestId('keep-reasons')).toContainText(
    'Corrupt: kept until deleted by hand, never counted by a rule (since',
  );
  const healthy = retention.kept.filter({ hasText: `${TREE} full 3` });
  await expect(healthy.getByTestId('backup-health')).toContainText('Healthy');
  await expect(healthy.getByTestId('keep-reasons')).toHaveText('Last 1 of 2');
  await expect(
    retention.kept.filter({ hasText: `${TREE} full 2` }).getByTestId('keep-reasons'),
  ).toHaveText('Last 2 of 2');
  await expect(page.getByTestId('retention-damaged-note')).toContainText(
    'no rule counts it (the newest healthy backups are kept in its place)',
  );
  await expectNoSeriousA11yViolations(page, testInfo);
});
