import { StoreOperationState } from '@store/contract';
import { OperationDetailPage } from './pages/operation-detail-page';
import { OperationsTray } from './pages/operations-tray';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';
import { seedLargeTree } from './support/large-tree';

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A capture throttled to run for minutes: something the tray shows while the test clicks. */
async function startLongCapture(api: StoreApi, tenant: string): Promise<string> {
  await seedLargeTree(api, tenant, 'busy', 20_000);
  const handle = await api.backup.startBackup({
    name: 'long',
    scope: { treeId: 'busy' },
    maxEntriesPerSecond: 200,
  });
  return handle.operationId;
}

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test.describe('the tray, errors and progress', () => {
  test('a capture shows its percent while it runs, and 100 % on a still bar once finished', async ({
    page,
    tenant,
  }) => {
    await signInWithToken(page, tenant.admin.token);
    await seedLargeTree(tenant.api, tenant.name, 'paced', 6_000);
    const handle = await tenant.api.backup.startBackup({
      name: 'paced',
      scope: { treeId: 'paced' },
      maxEntriesPerSecond: 1_500,
    });
    const detail = new OperationDetailPage(page);
    await detail.open(handle.operationId);
    const bar = detail.progressBar('Backup');
    // The entry total is known from the start: a percent, in entries.
    await expect(bar).toHaveAttribute('aria-valuetext', /of 6,000 entries · \d+ %/);
    await expect(detail.status).toContainText('Succeeded', { timeout: 30_000 });
    await expect(bar).toHaveAttribute('aria-valuenow', '100');
    await expect(bar).toHaveAttribute('aria-valuetext', /^6,000 of 6,000 entries · 100 %$/);
    await expect(bar).not.toHaveClass(/indeterminate/);
    const animation = await bar
      .locator('.progress__fill')
      .evaluate((fill) => getComputedStyle(fill).animationName);
    expect(animation).toBe('none');
    const status = await tenant.api.backup.getBackupOperationStatus({
      operationId: handle.operationId,
    });
    expect(status.status?.state).toBe(StoreOperationState.SUCCEEDED);
    expect(status.status?.progress).toMatchObject({ done: 6_000n, total: 6_000n });
  });

  for (const [size, viewport] of [
    ['1440x900', WIDE],
    ['390x844', PHONE],
  ] as const) {
    test(`at ${size} the tray never covers a row action while an operation runs`, async ({
      page,
      tenant,
    }) => {
      for (let i = 0; i < 14; i++) {
        const key = `row-${String(i).padStart(2, '0')}`;
        await tenant.api.data.putEntry({ treeId: 'rows', key, valueJson: `{"i":${i}}` });
      }
      await signInWithToken(page, tenant.admin.token);
      const operationId = await startLongCapture(tenant.api, tenant.name);
      await page.setViewportSize(viewport);
      await page.goto('/trees/rows');
      const tray = new OperationsTray(page);
      await tray.expectRunning(1);
      expect(await tray.layout()).toBe(viewport === WIDE ? 'docked' : 'pill');

      // Playwright's actionability check fails if anything covers the button it clicks.
      await page.getByRole('button', { name: 'Edit row-13' }).click();
      const edit = page.getByRole('dialog');
      await expect(edit).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(edit).toBeHidden();
      await page.getByRole('button', { name: 'Delete row-13' }).click();
      const confirm = page.getByRole('dialog');
      await expect(confirm).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(confirm).toBeHidden();

      // Scrolled to the very end, the last row's actions are clear of the pill too.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const lastDelete = page.getByRole('button', { name: 'Delete row-13' });
      await expect(lastDelete).toBeInViewport();
      const button = await lastDelete.boundingBox();
      const trayBox = await tray.root.boundingBox();
      expect(button && trayBox && overlaps(button, trayBox)).toBe(false);
      await page.screenshot({ path: `/tmp/shots/tray-${size}.png` });

      if (viewport === PHONE) {
        // On a phone the whole tray is a bottom sheet behind the pill.
        await tray.open();
        expect(await tray.layout()).toBe('sheet');
        await expect(tray.root.getByRole('progressbar', { name: 'Backup progress' })).toBeVisible();
        await page.screenshot({ path: `/tmp/shots/tray-sheet-${size}.png` });
        await page.keyboard.press('Escape');
        await expect(tray.toggle).toHaveAttribute('aria-expanded', 'false');
      }
      await tenant.api.backup.cancelBackupOperation({ operationId });
    });
  }

  test('a cancel from the console reads "Cancelled by …", neutral, not an error', async ({
    page,
    tenant,
  }) => {
    await signInWithToken(page, tenant.admin.token);
    const operationId = await startLongCapture(tenant.api, tenant.name);
    const detail = new OperationDetailPage(page);
    await detail.open(operationId);
    await expect(detail.status).toContainText(/Queued|Running/);
    await detail.cancel();
    await expect(detail.status).toContainText('Cancelled');
    const outcome = detail.outcome('Cancelled');
    // The canceller by its token's name; it is the signed-in caller, hence "(you)".
    await expect(outcome).toContainText('Cancelled by e2e (you) before it finished');
    await expect(outcome).not.toHaveClass(/panel--danger/);
    await expect(page.getByRole('region', { name: 'What went wrong', exact: true })).toHaveCount(0);
    await expect(page.getByText(/^Error/)).toHaveCount(0);
    // The toast and the tray say it the same way.
    await expect(page.getByText(/^Backup: cancelled by .+/)).toBeVisible();
    for (const [size, viewport] of [
      ['1440x900', WIDE],
      ['390x844', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `/tmp/shots/cancelled-${size}.png`, fullPage: true });
    }
  });

  test('a refused token is explained in words, with the code and raw message under Details', async ({
    page,
  }) => {
    for (const [size, viewport] of [
      ['1440x900', WIDE],
      ['390x844', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto('/sign-in');
      await page.getByLabel('API token').fill('sat_not-a-token-of-this-server');
      await page.getByRole('button', { name: 'Sign in with API token' }).click();
      const problem = page.getByText(/does not know this API token/);
      await expect(problem).toContainText("API tokens belong to one server's data directory");
      await expect(problem).toContainText('npm run token -- create --tenant <tenant> --role');
      const details = page.locator('details', { hasText: 'Details' });
      await details.getByText('Details').click();
      await expect(details).toContainText('Unauthenticated: credential refused');
      await page.screenshot({ path: `/tmp/shots/token-error-${size}.png`, fullPage: true });
    }
  });
});
