import { Code, ConnectError } from '@connectrpc/connect';
import { AuditPage } from './pages/audit-page';
import { capturedBackupId, finishedState } from './pages/backup-names';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, issueToken, signInWithToken, storeApi, test } from './support/fixtures';

test.describe('audit', () => {
  test('a change, a refusal and a token made by the CLI are in the audit list; filters narrow it and live in the URL', async ({
    page,
    tenant,
  }, testInfo) => {
    await tenant.api.data.putEntry({ treeId: 'audited', key: 'k1', valueJson: '{"n":1}' });
    const viewer = issueToken(tenant.name, ['viewer']);
    const refused = await storeApi(viewer.token, tenant.name)
      .data.deleteEntry({ treeId: 'audited', key: 'k1' })
      .catch((error: unknown) => ConnectError.from(error));
    expect((refused as ConnectError).code).toBe(Code.PermissionDenied);

    await signInWithToken(page, tenant.admin.token);
    const audit = new AuditPage(page);
    await audit.open();

    const put = audit.row(/Put entry/);
    await expect(put).toContainText(`token:${tenant.admin.id}`);
    await expect(put).toContainText('audited');
    await expect(put).toContainText('Succeeded');
    const detail = await audit.openDetail(put);
    await expect(detail).toContainText('Put entry on audited (tree data)');
    await expect(detail).toContainText(/\d+\.\d+\.\d+\.\d+|:/);
    await put.getByRole('button', { name: /^Hide detail/ }).click();
    const denied = audit.row(/Delete entry/);
    await expect(denied).toContainText(`token:${viewer.id}`);
    await expect(denied).toContainText('Not permitted');
    await expect(audit.row(new RegExp(`cli.*Create token.*${viewer.id}`))).toHaveCount(1);
    await expectNoSeriousA11yViolations(page, testInfo);

    await audit.filterOutcome('PERMISSION_DENIED');
    await expect(page).toHaveURL(/outcome=PERMISSION_DENIED/);
    await expect(audit.rows).toHaveCount(1);
    await expect(audit.rows.first()).toContainText('Delete entry');

    await audit.clearFilters();
    await audit.filterMethod('PutEntry');
    await expect(page).toHaveURL(/method=PutEntry/);
    await expect(audit.rows).toHaveCount(1);
    // The filtered view is a link: a reload shows the same rows.
    await page.reload();
    await expect(audit.rows).toHaveCount(1);
    await expect(audit.rows.first()).toContainText('Put entry');

    // The export takes every record the filters match, whatever the table has loaded.
    const csv = await audit.export('CSV');
    expect(csv.fileName).toMatch(new RegExp(`^audit-${tenant.name}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const csvLines = csv.text.trimEnd().split('\r\n');
    expect(csvLines).toHaveLength(2);
    expect(csvLines[0]).toMatch(/^time,recordId,tenant,subject,subjectName,service,method,action,/);
    // A tree's name is its id: no target name beside it.
    expect(csvLines[1]).toContain(',PutEntry,Put entry,audited,,OK,');
    // Beside the raw subject, the person's name (the token's name), as the table shows it.
    const [, subjectName] =
      new RegExp(`,token:${tenant.admin.id},([^,]*),`).exec(csvLines[1]!) ?? [];
    expect(subjectName).toBeTruthy();
    expect(subjectName).not.toContain(tenant.admin.id);
    const jsonl = await audit.export('JSON Lines');
    expect(jsonl.fileName).toMatch(/\.jsonl$/);
    const lines = jsonl.text.trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { method: string }).method)).toEqual([
      'PutEntry',
    ]);
    await page.screenshot({ path: '/tmp/shots/27c-audit-1440.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(audit.rows.first()).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: '/tmp/shots/27c-audit-390.png', fullPage: true });
  });

  test('a record whose target is a backup shows the backup by name, the id on hover and in the detail and export', async ({
    page,
    tenant,
  }) => {
    await tenant.api.data.putEntry({ treeId: 'ledger', key: 'k1', valueJson: '{"n":1}' });
    const started = await tenant.api.backup.startBackup({
      name: 'ledger before audit',
      scope: { treeId: 'ledger' },
    });
    const backupId = await capturedBackupId(tenant.api, started.operationId);
    const check = await tenant.api.backup.startBackupHealthCheck({ backupId });
    await finishedState(tenant.api, check.operationId);

    await signInWithToken(page, tenant.admin.token);
    const audit = new AuditPage(page);
    await audit.open();
    await audit.filterMethod('StartBackupHealthCheck');
    await expect(audit.rows).toHaveCount(1);
    const row = audit.rows.first();
    const target = row.getByText('ledger before audit', { exact: true });
    await expect(target).toBeVisible();
    await expect(target).toHaveAttribute('title', `ledger before audit (${backupId})`);
    await expect(row).not.toContainText(backupId);
    const detail = await audit.openDetail(row);
    await expect(detail).toContainText('on “ledger before audit” (backup control)');
    await expect(detail).toContainText(backupId);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: '/tmp/shots/i33-targets-audit-1440.png', fullPage: true });

    const csv = await audit.export('CSV');
    const [header, line] = csv.text.trimEnd().split('\r\n');
    expect(header).toContain(',target,targetName,');
    expect(line).toContain(`,${backupId},ledger before audit,OK,`);

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row).toContainText('ledger before audit');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
    await page.screenshot({ path: '/tmp/shots/i33-targets-audit-390.png', fullPage: true });
  });

  test('a viewer is not offered the audit page', async ({ page, tenant }) => {
    const viewer = issueToken(tenant.name, ['viewer']);
    await signInWithToken(page, viewer.token);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Trees' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Audit' })).toHaveCount(0);
    await page.goto('/audit');
    await expect(page.getByText('Admins only')).toBeVisible();
  });
});
