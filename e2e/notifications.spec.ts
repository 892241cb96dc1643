import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { StoreOperationState } from '@store/contract';
import {
  ChannelState,
  NotificationEvent,
  NotificationService,
} from '../proto/gen/store/notifications/v1/notifications_pb';
import { Webhook } from 'standardwebhooks';
import { VIEWPORTS } from './pages/app-routes';
import { DashboardAlerts, NotificationsPage } from './pages/notifications-page';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, issueToken, signInWithToken, test, type StoreApi } from './support/fixtures';
import { authedGrpcWebTransport } from './support/authed-transport';
import { startWebhookReceiver } from './support/webhook-receiver';
import { expectReadable } from './support/readable';

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

/**
 * A real capture failure: the tenant's artifact folder cannot be made, because a file has its
 * name (the artifact store is E2E_ARTIFACT_DIR, shared by the replicas behind Envoy).
 */
async function failBackup(api: StoreApi, tenantName: string, tree: string): Promise<string> {
  await api.data.putEntry({ treeId: tree, key: 'a', valueJson: '{"amount":1}' });
  const dataDir = process.env.E2E_DATA_DIR;
  const artifactDir = process.env.E2E_ARTIFACT_DIR ?? (dataDir && join(dataDir, 'artifacts'));
  if (!artifactDir) throw new Error('E2E_ARTIFACT_DIR is not set: this test blocks a folder');
  mkdirSync(artifactDir, { recursive: true });
  const blocker = join(artifactDir, tenantName);
  writeFileSync(blocker, 'not a folder');
  try {
    const { operationId } = await api.backup.startBackup({
      name: 'nightly',
      scope: { treeId: tree },
    });
    expect((await finished(api, operationId)).state).toBe(StoreOperationState.FAILED);
    return operationId;
  } finally {
    rmSync(blocker);
  }
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
  await failBackup(tenant.api, tenant.name, tree);

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

test('a channel whose receiver keeps failing is paused with a banner saying why, and resumes', async ({
  page,
  tenant,
}, testInfo) => {
  const receiver = await startWebhookReceiver(500);
  const client = createClient(
    NotificationService,
    authedGrpcWebTransport(process.env.E2E_BASE_URL!, tenant.admin.token, tenant.name),
  );
  try {
    await signInWithToken(page, tenant.admin.token);
    const notifications = new NotificationsPage(page);
    await notifications.open();
    await page.getByRole('button', { name: 'New channel' }).click();
    const form = page.getByRole('dialog', { name: 'New notification channel' });
    await form.getByLabel('Dead letters are piling up').check();
    await expect(form.getByLabel('Dead-letter threshold')).toBeVisible();
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `/tmp/shots/i35-notify-form-${size}.png` });
    }
    await page.setViewportSize(VIEWPORTS.wide);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await notifications.createWebhook('Broken hook', receiver.url);
    await notifications.closeSecret();

    const outcome = await notifications.sendTest('Broken hook');
    await expect(outcome).toHaveText('Test message failed (the receiver answered HTTP 500).');
    // Tests never pause a channel; real events do: two failed backups, two failed deliveries in
    // a row (STORE_NOTIFY_PAUSE_AFTER=2 in the e2e stacks).
    const [channel] = (await client.listChannels({})).channels;
    if (!channel) throw new Error('the channel was not created');
    await failBackup(tenant.api, tenant.name, 'ledger');
    await failBackup(tenant.api, tenant.name, 'orders');
    await expect
      .poll(async () => (await client.getChannel({ channelId: channel.channelId })).state, {
        timeout: 30_000,
      })
      .toBe(ChannelState.PAUSED);
    const card = notifications.channel('Broken hook');
    const banner = card.locator('.channel-paused');
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toContainText(/Not sending since .*: paused after \d+ failed deliveries/);
    await expect(banner).toContainText('HTTP 500');
    await expect(card.getByText('Paused', { exact: true })).toBeVisible();
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `/tmp/shots/i35-notify-paused-${size}.png`, fullPage: true });
      await expectReadable(page, `paused channel at ${size}`);
    }
    await expectNoSeriousA11yViolations(page, testInfo);

    await banner.getByRole('button', { name: 'Resume' }).click();
    await expect(banner).toHaveCount(0);
    await expect(card.getByText('Active', { exact: true })).toBeVisible();

    // Delete says what the log loses, and the channel goes.
    const logged = (await client.getChannel({ channelId: channel.channelId })).deliveryCount;
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete channel Broken hook?' });
    await expect(confirm).toContainText(`Its delivery log loses ${logged} deliveries`);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.screenshot({ path: '/tmp/shots/i35-notify-delete-phone.png' });
    await confirm.getByRole('button', { name: 'Delete channel' }).click();
    await expect(card).toHaveCount(0);
    await expect(page.getByText(/No channels yet/)).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test('a viewer reads the channels and their log, and is told why it cannot change them', async ({
  page,
  tenant,
}) => {
  const client = createClient(
    NotificationService,
    authedGrpcWebTransport(process.env.E2E_BASE_URL!, tenant.admin.token, tenant.name),
  );
  await client.createChannel({
    name: 'Ops mail hook',
    events: [NotificationEvent.BACKUP_FAILED],
    target: { case: 'webhook', value: { url: 'http://127.0.0.1:9/ops' } },
  });
  const viewer = issueToken(tenant.name, ['viewer'], 'e2e-viewer');
  await signInWithToken(page, viewer.token);
  const notifications = new NotificationsPage(page);
  await notifications.open();
  const card = notifications.channel('Ops mail hook');
  await expect(card).toContainText('http://127.0.0.1:9/ops');
  await expect(card.getByRole('button', { name: 'Send test' })).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'New channel' })).toBeDisabled();
  await expect(page.getByText(/Needs the admin role \(you are a viewer/)).toBeVisible();
  await card.getByRole('button', { name: /^Delivery log/ }).click();
  await expect(card.getByText('Nothing sent yet')).toBeVisible();
});
