// Issue 33, bullet 6: the console knows when the server is gone. Its own direct server (a fresh
// SQLite directory and port), so stopping it disturbs no other test: a long capture runs, the
// server stops, the console says so at desktop and phone sizes and shows the capture as
// unknown, keeping what it showed; the server starts again on the same data and port, and the
// console recovers by itself, with nothing clicked and no reload.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import {
  BackupControlService,
  BackupInsightService,
  SchemaControlService,
  TreeDataService,
} from '@store/contract';
import { SchemaInsightService } from '../proto/gen/store/insight/v1/schema_insight_pb';
import { OperationsTray } from './pages/operations-tray';
import { authedGrpcWebTransport } from './support/authed-transport';
import { expect, test, type StoreApi } from './support/fixtures';
import { freePort } from './support/free-port';
import { seedLargeTree } from './support/large-tree';
import { E2E_TENANT, startDirectStack, type RunningStack } from './support/stack';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

test.describe('the server goes away and comes back', () => {
  test.describe.configure({ timeout: 240_000 });
  let workDir: string;
  let stack: RunningStack | undefined;
  let start: (adminToken?: string) => Promise<RunningStack>;

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    workDir = mkdtempSync(join(tmpdir(), 'store-e2e-server-gone-'));
    mkdirSync('/tmp/shots', { recursive: true });
    const httpPort = await freePort();
    start = (adminToken) =>
      startDirectStack({
        workDir,
        webDir: process.env.E2E_WEB_DIR!,
        httpPort,
        issuer: { issuer: process.env.E2E_OIDC_ISSUER!, audience: process.env.E2E_OIDC_AUDIENCE! },
        logDir: workDir,
        ...(adminToken ? { adminToken } : {}),
      });
    stack = await start();
  });
  test.afterAll(async () => {
    await stack?.stop();
    rmSync(workDir, { recursive: true, force: true });
  });

  test('a banner since when at every size, the capture unknown, the data kept, then back by itself', async ({
    page,
  }) => {
    const { baseUrl, adminToken, dataDir } = stack!.info;
    const transport = authedGrpcWebTransport(baseUrl, adminToken, E2E_TENANT);
    const api: StoreApi = {
      backup: createClient(BackupControlService, transport),
      schema: createClient(SchemaControlService, transport),
      data: createClient(TreeDataService, transport),
      schemaInsight: createClient(SchemaInsightService, transport),
      backupInsight: createClient(BackupInsightService, transport),
    };
    // seedLargeTree writes into the stack's SQLite file, found through E2E_DATA_DIR: this one's.
    const sharedDataDir = process.env.E2E_DATA_DIR;
    process.env.E2E_DATA_DIR = dataDir;
    try {
      await seedLargeTree(api, E2E_TENANT, 'busy', 20_000);
    } finally {
      process.env.E2E_DATA_DIR = sharedDataDir;
    }
    // 200 entries a second: about 100 s, long past the outage.
    const capture = await api.backup.startBackup({
      name: 'long capture',
      scope: { treeId: 'busy' },
      maxEntriesPerSecond: 200,
    });

    await page.setViewportSize(DESKTOP);
    await page.goto(`${baseUrl}/sign-in`);
    await page.getByLabel('API token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in with API token' }).click();
    await expect(page.getByRole('navigation', { name: /main/i })).toBeVisible();
    await page.goto(`${baseUrl}/operations`);
    const tray = new OperationsTray(page);
    await tray.expectRunning(1);
    await tray.open();
    const row = page.getByRole('row').filter({ hasText: capture.operationId });
    await expect(row).toBeVisible();
    // While the server answers: a time left in the tray.
    await expect(tray.root.getByRole('progressbar')).toHaveAttribute('aria-valuetext', /left/);
    const banner = page.getByRole('status').filter({ hasText: "Can't reach the server" });
    await expect(banner).toHaveCount(0);

    const stoppedAt = new Date();
    await stack!.stop();
    stack = undefined;

    // Desktop: one banner, the time in the admin's own zone, labelled; the capture unknown.
    await expect(banner).toBeVisible({ timeout: 20_000 });
    await expect(banner).toContainText(/Can't reach the server since .+ \(your time\) — retrying/);
    const since = new Date((await banner.locator('time').getAttribute('datetime')) ?? '');
    expect(since.getTime()).toBeGreaterThanOrEqual(stoppedAt.getTime() - 1_000);
    const shownTime = await page.evaluate(
      (iso) => new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' }).format(new Date(iso)),
      since.toISOString(),
    );
    await expect(banner.locator('time')).toHaveText(shownTime);
    await expect(
      tray.root.getByText('Unknown — server unreachable', { exact: true }),
    ).toBeVisible();
    await expect(tray.root.getByRole('progressbar')).toHaveAttribute(
      'aria-valuetext',
      /^unknown — server unreachable/,
    );
    await expect(tray.root).not.toContainText(/left/);
    // The page keeps what it showed; nothing blames the server, no toast per failed poll.
    await expect(row).toBeVisible();
    await expect(row).toContainText('Unknown — server unreachable');
    await expect(page.getByText(/did not explain/)).toHaveCount(0);
    await expect(page.locator('.toast__title')).toHaveCount(0);
    await page.screenshot({ path: '/tmp/shots/server-gone-1440.png' });

    // Phone: the banner at the top, without opening the menu; the tray's pill says so too.
    await page.setViewportSize(PHONE);
    await expect(banner).toBeInViewport();
    await expect(tray.toggle).toHaveAccessibleName(/^Operations: 1 running when last seen/);
    await page.screenshot({ path: '/tmp/shots/server-gone-390.png' });
    await tray.open();
    await expect(
      tray.root.getByText('Unknown — server unreachable', { exact: true }),
    ).toBeVisible();
    await page.screenshot({ path: '/tmp/shots/server-gone-390-tray.png' });
    // Several tries later, still one banner and no toast.
    await page.waitForTimeout(4_000);
    await expect(banner).toHaveCount(1);
    await expect(page.locator('.toast__title')).toHaveCount(0);

    // Back on the same data and port: the banner goes, and the page refreshes by itself.
    stack = await start(adminToken);
    const after = await api.backup.startBackup({
      name: 'after the outage',
      scope: { treeId: 'busy' },
    });
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await expect(tray.root.getByText('Unknown — server unreachable', { exact: true })).toHaveCount(
      0,
    );
    await expect(page.getByRole('row').filter({ hasText: after.operationId })).toBeVisible({
      timeout: 30_000,
    });
    await expect(row).not.toContainText('Unknown — server unreachable');
    await page.screenshot({ path: '/tmp/shots/server-back-390.png' });
    await page.setViewportSize(DESKTOP);
    await expect(banner).toHaveCount(0);
    await page.screenshot({ path: '/tmp/shots/server-back-1440.png' });
  });
});
