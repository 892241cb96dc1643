import type { Locator, Page } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { OperationsTray } from './pages/operations-tray';
import { SchedulesPages } from './pages/schedules-pages';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';
import { seedLargeTree } from './support/large-tree';

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} has no box (not rendered)`);
  return box;
}

/** The area two boxes share, in px² (0 when they do not meet). */
function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

/** Whether the element is what a click at its centre hits (nothing covers or clips it there). */
async function hitAtCentre(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return hit !== null && (hit === element || element.contains(hit));
  });
}

/** Whether a scrolling ancestor (a table frame) cuts the element off on either side. */
async function clippedByFrame(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const r = element.getBoundingClientRect();
    for (let p = element.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (style.overflowX === 'visible') continue;
      const f = p.getBoundingClientRect();
      if (r.left < f.left - 0.5 || r.right > f.right + 0.5) return true;
    }
    return false;
  });
}

/** A throttled capture of a large tree: it keeps running, so the tray has something to show. */
async function keepSomethingRunning(api: StoreApi, tenant: string): Promise<string> {
  await seedLargeTree(api, tenant, 'busy', 4_000);
  const running = await api.backup.startBackup({
    name: 'busy',
    scope: { treeId: 'busy' },
    maxEntriesPerSecond: 100,
  });
  return running.operationId;
}

test('at 1440×900 the docked tray clips no Audit "Detail" link: each is whole, beside the tray and clickable', async ({
  page,
  tenant,
}) => {
  test.setTimeout(120_000);
  const api = tenant.api;
  // Audit rows with long targets: the widest cells the table has.
  for (let i = 0; i < 6; i++) {
    await api.data.putEntry({
      treeId: `customers-${'x'.repeat(60)}-${i}`,
      key: `customer/${i}`,
      valueJson: '{"n":1}',
    });
  }
  const running = await keepSomethingRunning(api, tenant.name);

  await page.setViewportSize(WIDE);
  await signInWithToken(page, tenant.admin.token);
  const tray = new OperationsTray(page);
  const audit = new AuditPage(page);
  await audit.open();
  await tray.expectRunning(1);
  expect(await tray.layout()).toBe('docked');
  await expect(audit.rows.first()).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/i33-layout-audit-docked-1440.png', fullPage: true });

  const trayBox = await boxOf(tray.root);
  const main = await boxOf(page.locator('main'));
  // The page is the column left of the tray, and nothing of it runs under the tray.
  expect(main.x + main.width).toBeLessThanOrEqual(trayBox.x + 0.5);
  const details = page.getByRole('button', { name: /^Detail/ });
  const count = await details.count();
  expect(count).toBeGreaterThan(5);
  for (let i = 0; i < count; i++) {
    const button = details.nth(i);
    await button.scrollIntoViewIfNeeded();
    const box = await boxOf(button);
    expect(overlap(box, await boxOf(tray.root)), `Detail ${i} under the tray`).toBe(0);
    expect(box.x + box.width, `Detail ${i} right edge`).toBeLessThanOrEqual(trayBox.x);
    expect(await clippedByFrame(button), `Detail ${i} cut by its table frame`).toBe(false);
    expect(await hitAtCentre(button), `Detail ${i} clickable`).toBe(true);
  }
  // Docked, the tray reflows no page sideways: none is wider than the window beside it.
  for (const url of ['/audit', '/operations', '/backups', '/schedules/overview', '/trees']) {
    await page.goto(url);
    await expect(page.locator('main h1')).toBeVisible();
    expect(await tray.layout()).toBe('docked');
    const wider = await page.evaluate(() => {
      const main = document.querySelector('main')!;
      return {
        page: document.documentElement.scrollWidth - window.innerWidth,
        main: main.scrollWidth - main.clientWidth,
      };
    });
    expect(wider, `${url} scrolls sideways with the tray docked`).toEqual({ page: 0, main: 0 });
  }
  await audit.open();
  // And it works: the last row's detail opens.
  const detail = await audit.openDetail(audit.rows.last());
  await expect(detail).toBeVisible();
  await api.backup.cancelBackupOperation({ operationId: running });
});

/** Scrolls the window to a fraction of its scroll range and waits until it is there. */
async function scrollToFraction(page: Page, fraction: number): Promise<void> {
  const target = await page.evaluate((f) => {
    const range = document.documentElement.scrollHeight - window.innerHeight;
    const y = Math.round(range * f);
    window.scrollTo(0, y);
    return y;
  }, fraction);
  await page.waitForFunction((y) => Math.abs(window.scrollY - y) <= 1, target);
}

for (const viewport of [WIDE, PHONE]) {
  test(`at ${viewport.width}×${viewport.height}, at the top, scrolled partway and at the bottom, the tray pill covers no row's buttons`, async ({
    page,
    tenant,
  }) => {
    test.setTimeout(120_000);
    const api = tenant.api;
    for (let i = 0; i < 30; i++) {
      await api.data.putEntry({ treeId: 'ledger', key: `k-${i}`, valueJson: '{"n":1}' });
    }
    // Signed in at the default size (the navigation shows), then at the size under test.
    await signInWithToken(page, tenant.admin.token);
    await page.setViewportSize(viewport);
    const tray = new OperationsTray(page);
    // On a wide screen the tray folds to its pill when asked to; on a phone it is one.
    if (viewport === WIDE) {
      await page.goto('/audit');
      await tray.close();
    }
    const header = page.getByRole('banner');
    // The audit list (a Detail button per row) and a tree's entries (Edit, Delete per row).
    for (const url of ['/audit', '/trees/ledger']) {
      await page.goto(url);
      expect(await tray.layout()).toBe('pill');
      const rows = page.locator('main tbody tr');
      await expect(rows.first()).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight),
        `${url} is long enough to scroll`,
      ).toBe(true);
      for (const fraction of [0, 0.3, 0.6, 1]) {
        await scrollToFraction(page, fraction);
        const band = await boxOf(header);
        const pill = await boxOf(tray.root);
        // The pill sits in the header's band, and the band stays at the top of the window.
        expect(Math.abs(band.y), `${url} at ${fraction}: the header is at the top`).toBeLessThan(1);
        expect(pill.y, `${url} at ${fraction}: pill in the header row`).toBeGreaterThanOrEqual(
          band.y - 0.5,
        );
        expect(pill.y + pill.height).toBeLessThanOrEqual(band.y + band.height + 0.5);
        // Every row button in the window below that band is whole and is what a click hits.
        const bandBottom = band.y + band.height;
        const buttons = await rows.getByRole('button').all();
        let seen = 0;
        for (const button of buttons) {
          const box = await button.boundingBox();
          if (!box || box.y < bandBottom || box.y + box.height > viewport.height) continue;
          seen++;
          const name = (await button.getAttribute('aria-label')) ?? (await button.innerText());
          expect(overlap(box, pill), `${url} at ${fraction}: ${name} under the pill`).toBe(0);
          expect(await hitAtCentre(button), `${url} at ${fraction}: ${name} clickable`).toBe(true);
        }
        expect(seen, `${url} at ${fraction}: row buttons in view`).toBeGreaterThan(0);
        await page.screenshot({
          path: `/tmp/shots/i34-pill-${viewport.width}-${url.replaceAll('/', '_')}-${fraction}.png`,
        });
      }
    }
  });
}

/** A tree name as long as the server takes, so its toast would wrap on a phone. */
const LONG_TREE = `toasted-${'x'.repeat(100)}`;

for (const viewport of [WIDE, PHONE]) {
  test(`at ${viewport.width}×${viewport.height} a toast never covers the result it announces${viewport === PHONE ? ', and each toast is one line' : ''}`, async ({
    page,
    tenant,
  }) => {
    await tenant.api.data.putEntry({ treeId: LONG_TREE, key: 'k', valueJson: '{"n":1}' });
    await signInWithToken(page, tenant.admin.token);
    await page.setViewportSize(viewport);
    const schedules = new SchedulesPages(page);
    await schedules.openScope(LONG_TREE);
    await schedules.fillCadence('Full', '24', 'hours');
    await schedules.fillCadence('Incremental', '6', 'hours');
    // The Save button at the window's bottom edge: its result appears where the toasts are.
    const save = schedules.form.getByRole('button', { name: 'Save schedule' });
    await save.evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await save.click();

    const toasts = page.locator('.toast');
    const toast = toasts.filter({ hasText: 'saved' });
    await expect(toast).toBeVisible();
    const result = page.locator('#schedule-saved');
    await expect(result).toBeVisible();
    await expect
      .poll(async () => overlap(await boxOf(result), await boxOf(toast)), {
        message: 'the saved notice is under its toast',
      })
      .toBe(0);
    const box = await boxOf(result);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(await hitAtCentre(result)).toBe(true);
    await page.screenshot({ path: `/tmp/shots/i33-layout-toast-result-${viewport.width}.png` });
    if (viewport !== PHONE) return;

    // A second toast stacks above the first; each stays one line, the rest on hover or behind "▾".
    await schedules.cadence('Full').getByRole('button', { name: 'Cancel full schedule' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel the full schedule?' })
      .getByRole('button', { name: 'Cancel schedule' })
      .click();
    await expect(toasts).toHaveCount(2);
    for (const item of await toasts.all()) {
      const lines = await item.locator('.toast__title').evaluate((title) => {
        const height = title.getBoundingClientRect().height;
        return Math.round(height / parseFloat(getComputedStyle(title).lineHeight));
      });
      expect(lines, await item.innerText()).toBe(1);
      const full = await item.locator('.toast__title').getAttribute('title');
      expect(full).toContain(LONG_TREE);
    }
    await page.screenshot({ path: '/tmp/shots/i33-layout-toasts-390.png' });
    const first = toasts.first();
    const oneLine = (await boxOf(first)).height;
    await first.getByRole('button', { name: /^Show all of:/ }).click();
    await expect.poll(async () => (await boxOf(first)).height).toBeGreaterThan(oneLine);
    await page.screenshot({ path: '/tmp/shots/i33-layout-toast-expanded-390.png' });
  });
}
