// Issue 17 (writes): a JSON Lines file imported on the trees page through PutEntries batches,
// with a progress bar, a report of refused and dead-lettered lines, and the entries listed.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { StoreSchemaMode } from '@store/contract';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, issueToken, signInWithToken, test } from './support/fixtures';
import { TreesPage } from './pages/trees-page';
import { withoutSaveFilePicker } from './support/save-file';

const TREE = 'imported';
const ENTRIES = 4000;

test.describe('JSON Lines import', () => {
  test('imports a file with a few bad lines: progress, a report by line, the entries listed', async ({
    page,
    tenant,
  }, testInfo) => {
    // Values need a string `name` (ENFORCE): one good-looking line is a dead letter.
    await tenant.api.schema.setPolicy({
      treeId: TREE,
      policy: {
        jsonSchema: JSON.stringify({ type: 'object', required: ['name'] }),
        mode: StoreSchemaMode.ENFORCE,
        version: 1,
      },
    });
    const lines = Array.from({ length: ENTRIES }, (_, i) =>
      JSON.stringify({
        key: `user-${String(i).padStart(5, '0')}`,
        value: { name: `User ${i}`, note: 'x'.repeat(200) },
      }),
    );
    lines[2] = '{"key": "broken", "value": '; // line 3: not JSON
    lines[6] = '{"key": "no-value"}'; // line 7
    lines[11] = '{"key": 12, "value": {}}'; // line 12: key not a string
    lines[19] = JSON.stringify({ key: 'nameless', value: { age: 3 } }); // line 20: dead letter
    lines[2999] = JSON.stringify({ key: 'x'.repeat(2000), value: { name: 'long' } }); // line 3000
    const file = testInfo.outputPath('entries.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);

    await signInWithToken(page, tenant.admin.token);
    const trees = new TreesPage(page);
    await trees.open();
    // Each PutEntries call is held back a little (it still reaches the real server), so the
    // progress bar is seen mid-import however fast the machine.
    await page.route('**/store.data.v1.TreeDataService/PutEntries', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await trees.startImport(TREE, file);

    const bar = trees.importDialog.getByRole('progressbar', { name: 'Import progress' });
    await expect(bar).toBeVisible();
    await expect(bar).toHaveAttribute('aria-valuetext', /\d (B|KiB|MiB) of /);
    // The bar counts lines the server has answered, not bytes read ahead: below 100 % while the
    // (held back) calls are out.
    await expect(bar).toHaveAttribute('aria-valuenow', /^\d{1,2}$/);
    await expect(trees.importDialog.getByTestId('import-counts')).toContainText('written');
    await page.screenshot({ path: testInfo.outputPath('import-progress.png') });
    await expect(trees.importReport).toBeVisible({ timeout: 60_000 });
    await expect(trees.importReport).toContainText('Import finished');
    await expect(trees.importReport.getByTestId('import-written')).toHaveText(
      (ENTRIES - 5).toLocaleString('en-US'),
    );
    await expect(trees.importReport.getByTestId('import-dead-lettered')).toHaveText('1');
    await expect(trees.importReport.getByTestId('import-refused')).toHaveText('4');
    const refused = trees.importReport.getByRole('table', { name: 'Refused lines' });
    for (const line of ['3', '7', '12', '3000']) {
      await expect(refused.getByRole('cell', { name: line, exact: true })).toBeVisible();
    }
    await expect(refused).toContainText('not JSON');
    await expect(refused).toContainText('"value" is missing');
    await expect(refused).toContainText('longer than'); // the server refused the key
    await expect(
      trees.importReport.getByRole('table', { name: 'Dead-lettered lines' }),
    ).toContainText('nameless: Schema violation');
    await expectNoSeriousA11yViolations(page, testInfo);
    await page.screenshot({ path: testInfo.outputPath('import-report.png'), fullPage: true });

    await trees.importDialog.getByRole('button', { name: 'Close' }).click();
    await expect(trees.treeRow(TREE)).toContainText((ENTRIES - 5).toLocaleString('en-US'));
    await trees.treeRow(TREE).getByRole('link', { name: TREE }).click();
    await expect(page.getByRole('row', { name: /user-00000/ })).toBeVisible();
    const stored = await tenant.api.data.getEntry({ treeId: TREE, key: 'user-03999' });
    expect(JSON.parse(stored.entry?.valueJson ?? 'null')).toMatchObject({ name: 'User 3999' });
  });

  test('an artifact exported through the console imports back into a new tree with the same entries', async ({
    page,
    tenant,
  }, testInfo) => {
    // Random text barely compresses: the artifact holds several gzip members (~256 KiB each),
    // which the browser's DecompressionStream alone would stop after the first of.
    const entries = Array.from({ length: 600 }, (_, i) => ({
      key: `row-${String(i).padStart(4, '0')}`,
      valueJson: JSON.stringify({ i, note: 'ünïcødé\n', pad: randomBytes(400).toString('hex') }),
    }));
    await tenant.api.data.putEntries({ treeId: 'exported', entries });
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the blocking form seeds in one call
    const { backupId } = await tenant.api.backup.createBackup({
      name: 'to import',
      scope: { treeId: 'exported' },
    });
    const described = await tenant.api.backup.describeBackup({ backupId });
    const artifactId = described.manifest?.artifacts[0]?.artifactId ?? '';

    // Saved as a browser download (the Blob-parts path), which Playwright hands over as a file.
    await withoutSaveFilePicker(page);
    await signInWithToken(page, tenant.admin.token);
    await page.goto(`/backups/${encodeURIComponent(backupId)}`);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: `Export ${artifactId}` }).click();
    const file = testInfo.outputPath((await download).suggestedFilename());
    await (await download).saveAs(file);
    expect(file).toMatch(/\.ndjson\.gz$/);

    const trees = new TreesPage(page);
    await trees.open();
    await trees.startImport('reimported', file);
    await expect(trees.importReport).toContainText('Import finished', { timeout: 60_000 });
    await expect(trees.importShapes).toHaveText(
      'Read 600 lines in the export-artifact shape (gzip)',
    );
    await expect(trees.importReport.getByTestId('import-written')).toHaveText('600');
    await expect(trees.importReport.getByTestId('import-refused')).toHaveText('0');
    mkdirSync('/tmp/shots', { recursive: true });
    await trees.importDialog.screenshot({ path: '/tmp/shots/import-artifact-report.png' });
    await expectNoSeriousA11yViolations(page, testInfo);

    const listed = async (treeId: string) =>
      (await tenant.api.data.listEntries({ treeId, pageSize: 1000 })).entries.map((e) => [
        e.key,
        e.valueJson,
      ]);
    expect(await listed('reimported')).toEqual(await listed('exported'));
  });

  test('an import can be cancelled; the report says what was confirmed', async ({
    page,
    tenant,
  }, testInfo) => {
    const lines = Array.from({ length: 6000 }, (_, i) =>
      JSON.stringify({ key: `k${i}`, value: { pad: 'y'.repeat(300) } }),
    );
    const file = testInfo.outputPath('many.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    await page.route('**/store.data.v1.TreeDataService/PutEntries', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined); // the cancel may have aborted it
    });
    await signInWithToken(page, tenant.admin.token);
    const trees = new TreesPage(page);
    await trees.open();
    await trees.startImport('cancelled', file);
    await expect(trees.importDialog.getByRole('progressbar')).toBeVisible();
    await trees.importDialog.getByRole('button', { name: 'Cancel import' }).click();
    await expect(trees.importReport).toContainText('Import cancelled');
    await expect(trees.importReport).toContainText('may or may not have been written');
  });

  test('a viewer sees the import refused with the reason', async ({ page, tenant }) => {
    const viewer = issueToken(tenant.name, ['viewer']);
    await signInWithToken(page, viewer.token);
    const trees = new TreesPage(page);
    await trees.open();
    await expect(page.getByRole('button', { name: 'Import JSON Lines' })).toBeDisabled();
    await expect(
      page.getByText(/^Needs the operator role \(you are a viewer/).first(),
    ).toBeVisible();
  });
});
