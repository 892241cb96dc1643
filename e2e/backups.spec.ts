import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { StoreOperationState } from '@store/contract';
import { OperationsTray } from './pages/operations-tray';
import { RestoreGuard } from './pages/restore-guard-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, issueToken, signInWithToken, test, type StoreApi } from './support/fixtures';
import { withoutSaveFilePicker } from './support/save-file';

const TREE = 'orders';

async function seed(api: StoreApi, entries: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(entries)) {
    await api.data.putEntry({ treeId: TREE, key, valueJson: JSON.stringify({ v: value }) });
  }
}

/** A full backup made behind the console, waited for through the status RPC. */
async function backupThroughApi(api: StoreApi, name: string): Promise<string> {
  const handle = await api.backup.startBackup({ name, scope: { treeId: TREE } });
  for (let attempt = 0; attempt < 100; attempt++) {
    const { status } = await api.backup.getBackupOperationStatus({
      operationId: handle.operationId,
    });
    if (status?.state === StoreOperationState.SUCCEEDED && status.result.case === 'capture') {
      return status.result.value.backupId;
    }
    if (status && status.state > StoreOperationState.SUCCEEDED) {
      throw new Error(`backup ended ${StoreOperationState[status.state]}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('backup did not finish');
}

/** On an operation's page: its state badge turns Succeeded while the page stays loaded. */
async function expectSucceededLive(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/operations\/[^/]+$/);
  const status = page.getByRole('heading', { name: /^Status/ });
  await expect(status).toContainText('Succeeded');
}

async function expectEntryOnTreePage(page: Page, key: string, value: string | null) {
  await page.goto(`/trees/${TREE}`);
  await expect(page.getByRole('heading', { name: `Tree ${TREE}` })).toBeVisible();
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `View ${key}` }) });
  if (value === null) {
    await expect(page.getByRole('button', { name: `View k1` })).toBeVisible();
    await expect(row).toHaveCount(0);
  } else {
    await expect(row).toContainText(value);
  }
}

test.describe('backups', () => {
  test('full then incremental from the console, each followed live; export matches the manifest', async ({
    page,
    tenant,
  }, testInfo) => {
    await seed(tenant.api, { k1: 'one', k2: 'two' });
    // The Blob-parts path of browsers without a file picker: Playwright sees it as a download
    // (the picked-file path: export-to-disk.spec.ts).
    await withoutSaveFilePicker(page);
    await signInWithToken(page, tenant.admin.token);

    await page.goto('/backups');
    await expect(page.getByText('No backups yet')).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);

    await page.getByRole('button', { name: 'Start backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a backup' });
    await dialog.getByLabel('Name').fill('nightly full');
    await dialog.getByLabel('Tree', { exact: true }).selectOption(TREE);
    // A marker in the page's memory: it survives client-side routing but not a reload.
    await page.evaluate(() => Object.assign(window, { e2eNoReload: true }));
    await dialog.getByRole('button', { name: 'Start full backup' }).click();
    await expectSucceededLive(page);

    // The capture result links to the backup it made.
    const result = page.getByRole('region', { name: 'Result' });
    await result.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/backups\/[^/]+$/);
    const fullId = decodeURIComponent(page.url().split('/').pop() ?? '');
    await expect(page.getByRole('heading', { name: 'nightly full' })).toBeVisible();
    await expectNoSeriousA11yViolations(page, testInfo);

    // Export: a browser download whose sha256 is the manifest's, with no credential in a URL.
    const described = await tenant.api.backup.describeBackup({ backupId: fullId });
    const artifact = described.manifest?.artifacts[0];
    expect(artifact).toBeDefined();
    await expect(page.getByTestId('artifact-sha256').first()).toHaveText(artifact!.sha256);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: `Export ${artifact!.artifactId}` }).click();
    const file = await (await download).path();
    const digest = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
    expect(digest).toBe(artifact!.sha256);
    // The console checked the same before it saved the file, and says so.
    await expect(page.getByText(/SHA-256 verified against the manifest/)).toBeVisible();
    expect((await download).url()).toMatch(/^blob:/);
    expect((await download).url()).not.toContain(tenant.admin.token);

    // Incremental on top of it, from the detail page (base preset, limited to the tree).
    await seed(tenant.api, { k3: 'three' });
    await page.getByRole('button', { name: 'Start incremental' }).click();
    const incDialog = page.getByRole('dialog', { name: 'Start a backup' });
    await expect(incDialog.getByLabel('Base backup')).toHaveValue(fullId);
    await incDialog.getByLabel('Name').fill('nightly inc');
    await incDialog.getByRole('button', { name: 'Start incremental backup' }).click();
    await expectSucceededLive(page);

    // Both operations reached SUCCEEDED on screen without the page being reloaded.
    expect(await page.evaluate(() => 'e2eNoReload' in window)).toBe(true);

    // The catalog shows both rows with their badges; the full one cannot be deleted alone.
    await page.goto('/backups');
    await expect(page.getByTestId('backup-row')).toHaveCount(2);
    await expect(page.getByTestId('backup-row').first()).toContainText('Never verified');
    await page.getByRole('link', { name: 'nightly full' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const del = page.getByRole('dialog', { name: 'Delete this backup?' });
    await expect(del).toContainText(tenant.name);
    // Named, not by id; the incremental that depends on it is named too.
    await expect(del).toContainText('nightly full');
    await expect(del).toContainText('1 incremental builds on it: nightly inc');
    await del.getByRole('button', { name: 'Delete backup' }).click();
    await expect(del.getByRole('alert')).toContainText('FailedPrecondition');
    await expect(del.getByLabel(/cascade/)).toBeVisible();
    await del.getByRole('button', { name: 'Keep it' }).click();
    expect((await tenant.api.backup.describeBackup({ backupId: fullId })).found).toBe(true);
  });

  test('restore in place, then revert, seen on the tree page', async ({ page, tenant }) => {
    await seed(tenant.api, { k1: 'original', k2: 'two' });
    const backupId = await backupThroughApi(tenant.api, 'before change');
    await seed(tenant.api, { k1: 'changed', k3: 'added later' });

    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/backups/${backupId}`);
    await page.getByRole('button', { name: 'Restore' }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore before change' });
    // The dialog opens on a new tree: replacing the live tree is a deliberate choice.
    await expect(dialog.getByLabel(/Into a new tree/)).toBeChecked();
    await expect(dialog.getByLabel(/In place/)).not.toBeChecked();
    await dialog.getByLabel(/In place/).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const confirm = dialog.getByRole('group', { name: 'Confirm the in-place restore' });
    await expect(confirm).toContainText(`tree ${TREE} in tenant ${tenant.name}`);
    await confirm.getByRole('button', { name: 'Restore in place' }).click();
    await expectSucceededLive(page);
    const operationUrl = page.url();

    await expectEntryOnTreePage(page, 'k1', 'original');
    await expectEntryOnTreePage(page, 'k3', null);

    await page.goto(operationUrl);
    await page.getByRole('button', { name: 'Revert restore' }).click();
    const revert = page.getByRole('dialog', { name: 'Revert this restore?' });
    await expect(revert).toContainText(tenant.name);
    await expect(revert).toContainText(TREE);
    await expect(revert.getByTestId('revert-writes')).toHaveText(
      'No writes since the restore: the revert discards nothing written after it.',
    );
    const revertedFrom = Date.now();
    await revert.getByRole('button', { name: 'Revert restore' }).click();
    await expect(page.getByText(/Reverted: tree/)).toBeVisible();
    const revertedTo = Date.now();

    // Who reverted it, by name, and when, wherever the restore is listed: its page (which no
    // longer offers Revert), the tray that followed it and the operations list.
    const reverted = /^Reverted by e2e \(you\) at \S.*$/;
    const onPage = page.getByRole('main').getByTestId('restore-reverted');
    await expect(onPage).toHaveText(reverted);
    await expect(page.getByRole('button', { name: 'Revert restore' })).toHaveCount(0);
    const at = Date.parse((await onPage.locator('time').getAttribute('datetime')) ?? '');
    // The server's clock stamped it while the click was answered (a second's slack for clocks).
    expect(at).toBeGreaterThanOrEqual(revertedFrom - 1000);
    expect(at).toBeLessThanOrEqual(revertedTo);
    await expect(onPage.locator('time')).toHaveAttribute('title', /^UTC \d{4}-\d\d-\d\d /);
    const tray = new OperationsTray(page);
    await tray.open();
    await expect(tray.root.getByTestId('restore-reverted')).toHaveText(reverted);
    await tray.close();
    await page.goto('/operations');
    const operationId = new URL(operationUrl).pathname.split('/').pop() ?? '';
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: operationId }) });
    await expect(row.getByTestId('restore-reverted')).toHaveText(reverted);

    await expectEntryOnTreePage(page, 'k1', 'changed');
    await expectEntryOnTreePage(page, 'k3', 'added later');
  });

  test('a set of two trees, consistent across trees, from the console', async ({
    page,
    tenant,
  }) => {
    await seed(tenant.api, { k1: 'one' });
    await tenant.api.data.putEntry({ treeId: 'users', key: 'u1', valueJson: '{"v":1}' });
    await signInWithToken(page, tenant.admin.token);

    await page.goto('/backups');
    await page.getByRole('button', { name: 'Start backup' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start a backup' });
    await dialog.getByRole('radio', { name: 'Set of trees' }).check();
    await dialog.getByLabel('Name').fill('both trees');
    await dialog.getByRole('checkbox', { name: TREE }).check();
    await dialog.getByRole('button', { name: 'Start set of trees backup' }).click();
    await expect(dialog.getByText('Pick at least two trees for a set')).toBeVisible();
    await dialog.getByRole('checkbox', { name: 'users' }).check();
    await expect(dialog.getByRole('checkbox', { name: /Consistent across trees/ })).toBeChecked();
    await dialog.getByRole('button', { name: 'Start set of trees backup' }).click();
    await expectSucceededLive(page);

    const result = page.getByRole('region', { name: 'Result' });
    await expect(result.getByRole('link')).toHaveCount(2);
    await result.getByRole('link').first().click();
    const members = page.getByRole('list', { name: 'Set members' });
    await expect(members.getByRole('link')).toHaveCount(1);
  });

  test('a viewer sees start, restore, delete and export disabled with the reason', async ({
    page,
    tenant,
  }) => {
    await seed(tenant.api, { k1: 'one' });
    const backupId = await backupThroughApi(tenant.api, 'seen by a viewer');
    const viewer = issueToken(tenant.name, ['viewer']);
    await signInWithToken(page, viewer.token);

    await page.goto('/backups');
    await expect(page.getByTestId('backup-row')).toHaveCount(1);
    const start = page.getByRole('button', { name: 'Start backup' });
    await expect(start).toBeDisabled();
    // The role sentence the whole console uses: the role needed, and the caller's.
    const you = `(you are a viewer in tenant ${tenant.name}).`;
    await expect(start).toHaveAccessibleDescription(`Needs the operator role ${you}`);

    await page.goto(`/backups/${backupId}`);
    for (const [name, role] of [
      ['Start incremental', 'operator'],
      ['Verify now', 'operator'],
      ['Restore', 'admin'],
      ['Delete', 'admin'],
      [/^Export /, 'operator'],
    ] as const) {
      const button = page.getByRole('button', { name });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(`Needs the ${role} role ${you}`);
    }
  });

  test('restore in place waits for the preview of exactly its request, and a tree changed since asks for a new one', async ({
    page,
    tenant,
  }) => {
    await seed(tenant.api, { k1: 'original', k2: 'two' });
    const backupId = await backupThroughApi(tenant.api, 'guarded');
    await seed(tenant.api, { k1: 'changed' });

    await signInWithToken(page, tenant.admin.token);
    const guard = new RestoreGuard(page, 'guarded');
    await guard.holdPreviewStatus();
    await guard.openInPlace(backupId);
    await expect(guard.restoreButton).toBeDisabled();
    await expect(guard.reason).toContainText('waits for the preview of exactly this restore');
    await guard.dialog.screenshot({ path: '/tmp/shots/restore-guard-1-waiting.png' });
    guard.releasePreviewStatus();
    expect((await guard.readPreview()).counts).toEqual({
      Added: 0,
      Changed: 1,
      Removed: 0,
      Unchanged: 1,
    });
    await expect(guard.restoreButton).toBeEnabled();
    await expect(guard.reason).toHaveCount(0);

    // Another prefix is another request: disabled again until its own preview has finished.
    await guard.holdPreviewStatus();
    await guard.changePrefix('k1');
    await expect(guard.restoreButton).toBeDisabled();
    guard.releasePreviewStatus();
    await guard.readPreview();
    await expect(guard.restoreButton).toBeEnabled();

    // A write after the preview: confirming restores nothing and asks for a new preview.
    await seed(tenant.api, { k1: 'written after the preview' });
    await guard.restoreButton.click();
    const warning = guard.confirmation.getByRole('alert');
    await expect(warning).toContainText('The tree changed since the preview; preview again.');
    await expect(guard.restoreButton).toBeDisabled();
    await guard.restoreButton.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/shots/restore-guard-2-tree-changed.png' });
    const k1 = await tenant.api.data.getEntry({ treeId: TREE, key: 'k1' });
    expect(JSON.parse(k1.entry!.valueJson)).toEqual({ v: 'written after the preview' });

    await guard.confirmation.getByRole('button', { name: 'Preview again' }).click();
    await guard.readPreview();
    await guard.restoreButton.click();
    await expectSucceededLive(page);
    await expectEntryOnTreePage(page, 'k1', 'original');
  });
});
