import { StoreOperationKind } from '@store/contract';
import {
  BackupComparePage,
  RestoreDialog,
  RevertDialog,
  readCounts,
  readDifferences,
} from './pages/backup-insight-pages';
import { madeBackup } from './pages/backup-names';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';

const TREE = 'ledger';

async function put(api: StoreApi, entries: Record<string, unknown>): Promise<void> {
  for (const [key, value] of Object.entries(entries)) {
    await api.data.putEntry({ treeId: TREE, key, valueJson: JSON.stringify(value) });
  }
}

async function tree(api: StoreApi): Promise<Map<string, unknown>> {
  const page = await api.data.listEntries({ treeId: TREE, pageSize: 1000 });
  return new Map(page.entries.map((e) => [e.key, JSON.parse(e.valueJson) as unknown]));
}

/** A backup made behind the console (full, or incremental on `base`), waited for. */
function backup(api: StoreApi, name: string, base?: string): Promise<string> {
  return madeBackup(api, TREE, name, base);
}

test.describe('restore preview and backup diff', () => {
  test('the preview shows what the restore then does; a tree changed after it is warned about', async ({
    page,
    tenant,
  }, testInfo) => {
    await put(tenant.api, { a: { v: 1 }, b: { v: 2 }, c: { v: 3 } });
    const backupId = await backup(tenant.api, 'before edits');
    await put(tenant.api, { a: { v: 'edited' }, d: { v: 4 } });
    await tenant.api.data.deleteEntry({ treeId: TREE, key: 'b' });

    await signInWithToken(page, tenant.admin.token);
    const restore = new RestoreDialog(page, 'before edits');
    await restore.openInPlace(backupId);
    const first = await restore.readPreview();
    await expectNoSeriousA11yViolations(page, testInfo);
    expect(first.counts).toEqual({ Added: 1, Changed: 1, Removed: 1, Unchanged: 1 });
    expect(first.differences.map((d) => [d.key, d.change])).toEqual([
      ['a', 'Changed'],
      ['b', 'Added'],
      ['d', 'Removed'],
    ]);
    expect(first.differences[0]).toMatchObject({ before: { v: 'edited' }, after: { v: 1 } });
    expect(first.differences[1]).toMatchObject({ before: undefined, after: { v: 2 } });

    // Someone writes after the preview: restoring now warns, and a new preview shows it.
    await put(tenant.api, { e: { v: 5 } });
    await restore.confirm();
    await expect(restore.confirmation.getByRole('alert')).toContainText(
      'changed after this preview',
    );
    await restore.confirmation.getByRole('button', { name: 'Preview again' }).click();
    const second = await restore.readPreview();
    expect(second.counts).toEqual({ Added: 1, Changed: 1, Removed: 2, Unchanged: 1 });

    const before = await tree(tenant.api);
    await restore.confirm();
    await expect(page).toHaveURL(/\/operations\/[^/]+$/);
    await expect(page.getByRole('heading', { name: /^Status/ })).toContainText('Succeeded');

    // The tree is exactly what the preview said: its differences applied, the rest untouched.
    const expected = new Map(before);
    for (const d of second.differences) {
      expect(d.before).toEqual(before.get(d.key));
      if (d.change === 'Removed') expected.delete(d.key);
      else expected.set(d.key, d.after);
    }
    expect(await tree(tenant.api)).toEqual(expected);
  });

  test('a revert preview shows the write made since the restore; the revert needs its acknowledgment and discards it', async ({
    page,
    tenant,
  }, testInfo) => {
    await put(tenant.api, { a: { v: 1 }, b: { v: 2 } });
    const backupId = await backup(tenant.api, 'before edits');
    await put(tenant.api, { a: { v: 'edited' }, c: { v: 3 } });
    const beforeRestore = await tree(tenant.api);

    await signInWithToken(page, tenant.admin.token);
    const restore = new RestoreDialog(page, 'before edits');
    await restore.openInPlace(backupId);
    await restore.confirm();
    await expect(page.getByRole('heading', { name: /^Status/ })).toContainText('Succeeded');
    const operationUrl = page.url();
    // A fix made after the restore: the revert would silently lose it without the guard.
    await put(tenant.api, { fixed: { v: 'after restore' } });

    const revert = new RevertDialog(page);
    await revert.open(operationUrl);
    const { counts, differences } = await revert.readPreview();
    expect(counts).toEqual({ 'Brought back': 1, 'Changed back': 1, Removed: 1, Unchanged: 1 });
    expect(differences.map((d) => [d.key, d.change, d.before, d.after])).toEqual([
      ['a', 'Changed back', { v: 1 }, { v: 'edited' }],
      ['c', 'Brought back', undefined, { v: 3 }],
      ['fixed', 'Removed', { v: 'after restore' }, undefined],
    ]);
    await expect(revert.writes).toContainText('1 write made since the restore will be discarded.');
    const confirm = revert.confirmButton('Revert and discard 1 write');
    await expect(confirm).toBeDisabled();
    await revert.acknowledgeDiscard();
    await expect(confirm).toBeEnabled();
    await expectNoSeriousA11yViolations(page, testInfo);
    await revert.dialog.screenshot({ path: testInfo.outputPath('revert-dialog.png') });
    await confirm.click();
    await expect(page.getByText(/Reverted: tree/)).toBeVisible();
    expect(await tree(tenant.api)).toEqual(beforeRestore);
  });

  test('a revert refused because the counted key was written again after the preview; Preview again shows that write and the revert discards it', async ({
    page,
    tenant,
  }) => {
    await put(tenant.api, { a: { v: 1 } });
    const backupId = await backup(tenant.api, 'before the fix');
    await put(tenant.api, { a: { v: 'edited' } });
    const beforeRestore = await tree(tenant.api);

    await signInWithToken(page, tenant.admin.token);
    const restore = new RestoreDialog(page, 'before the fix');
    await restore.openInPlace(backupId);
    await restore.confirm();
    await expect(page.getByRole('heading', { name: /^Status/ })).toContainText('Succeeded');
    const operationUrl = page.url();
    await put(tenant.api, { fixed: { v: 'first' } });

    const revert = new RevertDialog(page);
    await revert.open(operationUrl);
    await expect(revert.writes).toContainText('1 write made since the restore will be discarded.');
    await revert.acknowledgeDiscard();
    // The same key again, after the preview: the count of keys written is still 1.
    await put(tenant.api, { fixed: { v: 'second, never previewed' } });
    await revert.confirmButton('Revert and discard 1 write').click();
    await expect(
      revert.dialog.getByText(/was written since the preview .*; preview the revert again/).first(),
    ).toBeVisible();
    expect((await tree(tenant.api)).get('fixed')).toEqual({ v: 'second, never previewed' });

    await revert.previewAgain();
    const { differences } = await revert.readPreview();
    expect(differences.find((d) => d.key === 'fixed')?.before).toEqual({
      v: 'second, never previewed',
    });
    const confirm = revert.confirmButton('Revert and discard 1 write');
    await expect(confirm).toBeDisabled();
    await revert.acknowledgeDiscard();
    await confirm.click();
    await expect(page.getByText(/Reverted: tree/)).toBeVisible();
    expect(await tree(tenant.api)).toEqual(beforeRestore);
  });

  test('two backups ticked in the catalog are compared', async ({ page, tenant }, testInfo) => {
    await put(tenant.api, { x: { n: 1 }, y: { n: 2 } });
    const full = await backup(tenant.api, 'monday full');
    await put(tenant.api, { y: { n: 20 }, z: { n: 3 } });
    await tenant.api.data.deleteEntry({ treeId: TREE, key: 'x' });
    await backup(tenant.api, 'tuesday inc', full);

    await signInWithToken(page, tenant.admin.token);
    const compare = new BackupComparePage(page);
    await compare.compareFromCatalog('monday full', 'tuesday inc');
    expect(await readCounts(compare.main)).toEqual({
      Added: 1,
      Changed: 1,
      Removed: 1,
      Unchanged: 0,
    });
    const differences = await readDifferences(compare.main);
    expect(differences.map((d) => [d.key, d.change])).toEqual([
      ['x', 'Removed'],
      ['y', 'Changed'],
      ['z', 'Added'],
    ]);
    expect(differences[1]).toMatchObject({ before: { n: 2 }, after: { n: 20 } });
    await expectNoSeriousA11yViolations(page, testInfo);

    // Stored differences expire unless an admin keeps them (docs/security.md, Preview storage).
    await expect(compare.main.getByTestId('difference-storage')).toContainText('stored until');
    await compare.main.getByRole('button', { name: 'Keep differences' }).click();
    await expect(compare.main.getByTestId('difference-storage')).toContainText('Differences kept');

    // The diff's id is in the URL: a reload shows the same diff and starts no other.
    const diffId = new URL(page.url()).searchParams.get('diff');
    await page.reload();
    await expect(readCounts(compare.main)).resolves.toMatchObject({ Added: 1, Changed: 1 });
    expect(new URL(page.url()).searchParams.get('diff')).toBe(diffId);
    const diffs = await tenant.api.backupInsight.listBackupInsightOperations({
      kinds: [StoreOperationKind.BACKUP_DIFF],
    });
    expect(diffs.operations.map((o) => o.operationId)).toEqual([diffId]);
  });
});
