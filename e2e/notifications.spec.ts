import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreOperationState } from '@store/contract';
import type { Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { VIEWPORTS, elementsPastTheEdge, pageWidths } from './pages/app-routes';
import { DashboardAlerts, NotificationsPage } from './pages/notifications-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';
import { startWebhookReceiver } from './support/webhook-receiver';
import { brokenWords } from './support/words';

/** Nothing sticks out past the window, and no word is cut to fit: at the size now set. */
async function expectReadable(page: Page, what: string) {
  const widths = await pageWidths(page);
  expect(
    widths.scrollWidth,
    `${what}: ${(await elementsPastTheEdge(page)).join(', ')}`,
  ).toBeLessThanOrEqual(widths.innerWidth);
  expect(await brokenWords(page), `${what}: words broken`).toEqual([]);
}

async function finished(api: StoreApi, operationId: string) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { status } = await api.backup.getBackupOperationStatus({ operationId });
    if (
      status &&
      status.state !== StoreOperationState.QUEUED &&
      status.state !== StoreOperationState.RUNNING
    ) {
      return status;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`operation ${operationId} did not finish within 20 s`);
}

test('a webhook channel: its secret shown once, a signed test delivered with HTTP 200 and logged', async ({
  page,
  tenant,
}, testInfo) => {
  const receiver = await startWebhookReceiver();
  try {
    await signInWithToken(page, tenant.admin.token);
    const notifications = new NotificationsPage(page);
    await notifications.open();
    await expect(page.getByText(/No channels yet/)).toBeVisible();

    const secret = await notifications.createWebhook('On-call pager', receiver.url, [
      'A backup failed',
    ]);
    await expect(notifications.secretDialog).toContainText('you will not see it again');
    await page.screenshot({ path: '/tmp/shots/i35-notify-secret-1440.png' });
    await notifications.closeSecret();
    // Once closed, the secret is nowhere on the page, nor after a reload: only its first characters.
    const card = notifications.channel('On-call pager');
    await expect(card).toContainText(secret.slice(0, 10));
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await expect(card).toBeVisible();
    expect(await page.content()).not.toContain(secret);

    const outcome = await notifications.sendTest('On-call pager');
    await expect(outcome).toHaveText('Test message delivered (the receiver answered HTTP 200).');
    expect(receiver.received).toHaveLength(1);
    const [test] = receiver.received;
    // The receiver checks the signature as any Standard Webhooks consumer does; throws if bad.
    const payload = new Webhook(secret).verify(test!.body, {
      'webhook-id': String(test!.headers['webhook-id']),
      'webhook-timestamp': String(test!.headers['webhook-timestamp']),
      'webhook-signature': String(test!.headers['webhook-signature']),
    });
    expect(payload).toBeTruthy();
    expect(() =>
      new Webhook(`whsec_${Buffer.from('another secret!!').toString('base64')}`).verify(
        test!.body,
        {
          'webhook-id': String(test!.headers['webhook-id']),
          'webhook-timestamp': String(test!.headers['webhook-timestamp']),
          'webhook-signature': String(test!.headers['webhook-signature']),
        },
      ),
    ).toThrow();

    const rows = await notifications.openLog('On-call pager');
    const testRow = rows.filter({ hasText: 'Test message' });
    await expect(testRow).toContainText('Delivered');
    await expect(testRow).toContainText('HTTP 200');

    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `/tmp/shots/i35-notifications-${size}.png`, fullPage: true });
      await expectReadable(page, `notifications at ${size}`);
    }
    await expectNoSeriousA11yViolations(page, testInfo);
  } finally {
    await receiver.close();
  }
});

test('a failed backup shows on the dashboard as an alert that links to its tree', async ({
  page,
  tenant,
}, testInfo) => {
  const tree = 'ledger';
  await tenant.api.data.putEntry({ treeId: tree, key: 'a', valueJson: '{"amount":1}' });
  // A real failure: the tenant's artifact folder cannot be made, because a file has its name.
  const dataDir = process.env.E2E_DATA_DIR;
  const artifactDir = process.env.E2E_ARTIFACT_DIR ?? (dataDir && join(dataDir, 'artifacts'));
  if (!artifactDir) throw new Error('E2E_ARTIFACT_DIR is not set: this test blocks a folder');
  mkdirSync(artifactDir, { recursive: true });
  const blocker = join(artifactDir, tenant.name);
  writeFileSync(blocker, 'not a folder');
  try {
    const { operationId } = await tenant.api.backup.startBackup({
      name: 'nightly',
      scope: { treeId: tree },
    });
    expect((await finished(tenant.api, operationId)).state).toBe(StoreOperationState.FAILED);
  } finally {
    rmSync(blocker);
  }

  await signInWithToken(page, tenant.admin.token);
  const alerts = new DashboardAlerts(page);
  const row = alerts.row(/backup/i);
  await expect(row).toBeVisible({ timeout: 20_000 });
  await expect(row.getByRole('link', { name: `tree ${tree}` })).toHaveAttribute(
    'href',
    `/trees/${tree}`,
  );
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    await alerts.section.scrollIntoViewIfNeeded();
    await alerts.section.screenshot({ path: `/tmp/shots/i35-dashboard-alerts-${size}.png` });
    await expectReadable(page, `dashboard at ${size}`);
  }
  await expectNoSeriousA11yViolations(page, testInfo);
  await row.getByRole('link', { name: `tree ${tree}` }).click();
  await expect(page).toHaveURL(new RegExp(`/trees/${tree}$`));
});
