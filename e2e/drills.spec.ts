import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreOperationState } from '@store/contract';
import type { Page } from '@playwright/test';
import { VIEWPORTS } from './pages/app-routes';
import { expect, issueToken, signInWithToken, test, type StoreApi } from './support/fixtures';
import { expectReadable } from './support/readable';

// Issue 36 bullet 5: the console shows proof. A real capture, a real drill started from the
// backup's page, and "last proven restorable" on the catalog, the tree, the dashboard and fleet
// health; the tree never drilled reads as never proven; a viewer cannot run a drill.

/** Looks at the page at both sizes: readable, and a screenshot to look at. */
async function shoot(page: Page, name: string) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await expectReadable(page, `${name} at ${size}`);
    await page.screenshot({ path: `/tmp/shots/i36-${name}-${size}.png`, fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.wide);
}

async function captured(api: StoreApi, treeId: string): Promise<string> {
  const { operationId } = await api.backup.startBackup({ name: 'nightly', scope: { treeId } });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { status } = await api.backup.getBackupOperationStatus({ operationId });
    if (status?.state === StoreOperationState.SUCCEEDED && status.result.case === 'capture') {
      return status.result.value.backupId;
    }
    if (status && status.state > StoreOperationState.SUCCEEDED) {
      throw new Error(`capture ${operationId} ended ${status.state}: ${status.error?.message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`capture ${operationId} did not finish within 20 s`);
}

test('Run drill on a backup: PROVEN with duration, then last proven on catalog, tree, dashboard and fleet health', async ({
  page,
  tenant,
}) => {
  for (const key of ['a', 'b', 'c']) {
    await tenant.api.data.putEntry({
      treeId: 'ledger',
      key,
      valueJson: `{"amount":${key.charCodeAt(0)}}`,
    });
  }
  await tenant.api.data.putEntry({ treeId: 'orphan', key: 'x', valueJson: '{"n":1}' });
  const backupId = await captured(tenant.api, 'ledger');

  await signInWithToken(page, tenant.admin.token);
  await page.goto(`/backups/${encodeURIComponent(backupId)}`);
  const panel = page.getByTestId('backup-drills');
  await expect(panel.getByTestId('backup-last-proven')).toContainText('Never proven');
  await panel.getByRole('button', { name: 'Run drill' }).click();
  const run = panel.getByTestId('drill-run');
  await expect(run).toContainText(
    /Proven: 3 entries restored in \d+ (ms|s) \([\d,. ]+ entries\/s\)/,
    {
      timeout: 30_000,
    },
  );
  await expect(panel.getByTestId('backup-last-proven')).toContainText(/Proven just now/);
  await expect(panel.getByRole('table')).toContainText('Proven');
  const drillId = await panel
    .getByRole('link', { name: /Details of drill/ })
    .first()
    .evaluate((a) => decodeURIComponent((a as HTMLAnchorElement).pathname.split('/').pop() ?? ''));
  await shoot(page, 'backup-drills');

  // The catalog: the backup's row says it is proven.
  await page.goto('/backups');
  await expect(page.getByTestId('backup-row').first()).toContainText('Proven just now');
  await shoot(page, 'catalog-proof');

  // The tree: last proven, its history with the duration, the expected time to restore.
  await page.goto('/trees/ledger');
  const tree = page.getByTestId('tree-drills');
  await expect(tree.getByTestId('tree-last-proven')).toContainText('Proven just now');
  await expect(tree.getByTestId('tree-expected-restore')).toContainText(/About \d+ (ms|s)/);
  // The history names the backup as the catalog does, its id on hover, and links to it.
  const drilled = tree.getByRole('table').getByRole('link', { name: 'nightly' });
  await expect(drilled).toHaveAttribute('title', backupId);
  await expect(drilled).toHaveAttribute('href', `/backups/${encodeURIComponent(backupId)}`);
  await shoot(page, 'tree-drills');

  // The dashboard: one tree never proven, linking to it.
  await page.goto('/');
  const section = page.getByRole('region', { name: /Trees not proven restorable/ });
  await expect(section.getByTestId('proof-counts')).toContainText(
    '1 tree never proven, 0 trees not proven',
  );
  await expect(section.getByRole('link', { name: 'orphan' })).toHaveAttribute(
    'href',
    '/trees/orphan',
  );
  await shoot(page, 'dashboard-proof');

  // Fleet health: a proof per tree, the never proven first.
  await page.goto('/health');
  const proofs = page.locator('#tree-proofs');
  const rows = proofs.getByRole('row');
  await expect(rows.nth(1)).toContainText('orphan');
  await expect(rows.nth(1)).toContainText('Never proven');
  await expect(rows.nth(2)).toContainText('ledger');
  await expect(rows.nth(2)).toContainText('Proven just now');
  await proofs.scrollIntoViewIfNeeded();
  await shoot(page, 'health-proofs');

  // The operations page lists the drill as its own kind, and filters on it.
  await page.goto('/operations?kind=RESTORE_DRILL');
  await expect(page.getByRole('cell', { name: /Restore drill/ }).first()).toBeVisible();
  // Its detail page says what it found, read through RestoreDrillService.
  await page.goto(`/operations/${encodeURIComponent(drillId)}`);
  await expect(page.getByTestId('drill-result')).toContainText(/Proven: 3 entries restored in/);
  await shoot(page, 'drill-operation');
});

test('a viewer sees the proof but cannot run a drill, and is told why', async ({
  page,
  tenant,
}) => {
  await tenant.api.data.putEntry({ treeId: 'ledger', key: 'a', valueJson: '{"amount":1}' });
  const backupId = await captured(tenant.api, 'ledger');
  const viewer = issueToken(tenant.name, ['viewer'], 'e2e-viewer');
  await signInWithToken(page, viewer.token);
  await page.goto(`/backups/${encodeURIComponent(backupId)}`);
  const panel = page.getByTestId('backup-drills');
  await expect(panel.getByTestId('backup-last-proven')).toContainText('Never proven');
  await expect(panel.getByRole('button', { name: 'Run drill' })).toBeDisabled();
  await expect(panel.getByText(/Needs the operator role \(you are a viewer/)).toBeVisible();
  await shoot(page, 'backup-drills-viewer');
});

test('a drill of a damaged artifact reads FAILED with its reason, and the tree as failing', async ({
  page,
  tenant,
}) => {
  for (const key of ['a', 'b', 'c']) {
    await tenant.api.data.putEntry({ treeId: 'damaged', key, valueJson: '{"amount":1}' });
  }
  const backupId = await captured(tenant.api, 'damaged');
  const described = await tenant.api.backup.describeBackup({ backupId });
  const artifactId = described.manifest?.artifacts[0]?.artifactId ?? '';
  // A real fault: one flipped byte in the stored artifact (the store is E2E_ARTIFACT_DIR).
  const dataDir = process.env.E2E_DATA_DIR;
  const artifactDir = process.env.E2E_ARTIFACT_DIR ?? (dataDir && join(dataDir, 'artifacts'));
  if (!artifactDir) throw new Error('E2E_ARTIFACT_DIR is not set: this test damages an artifact');
  const file = join(artifactDir, tenant.name, backupId, `${artifactId}.ndjson.gz`);
  const bytes = readFileSync(file);
  bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
  writeFileSync(file, bytes);

  await signInWithToken(page, tenant.admin.token);
  await page.goto(`/backups/${encodeURIComponent(backupId)}`);
  const panel = page.getByTestId('backup-drills');
  await panel.getByRole('button', { name: 'Run drill' }).click();
  await expect(panel.getByTestId('drill-run')).toContainText(/Failed: .*unreadable artifact/i, {
    timeout: 30_000,
  });
  await expect(panel.getByTestId('backup-last-proven')).toContainText('Drill failed, never proven');
  await shoot(page, 'backup-drill-failed');

  await page.goto('/');
  const section = page.getByRole('region', { name: /Trees not proven restorable/ });
  await expect(section.getByRole('row', { name: /damaged/ })).toContainText(
    'Drill failed, never proven',
  );
});
