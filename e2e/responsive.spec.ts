import { capturedBackupId } from './pages/backup-names';
import {
  VIEWPORTS,
  declaredRoutePatterns,
  elementsPastTheEdge,
  openRoute,
  pageWidths,
  type RouteVisit,
} from './pages/app-routes';
import { expectNoSeriousA11yViolations } from './support/axe';
import { expect, signInWithToken, test, type StoreApi } from './support/fixtures';
import { brokenWords } from './support/words';

/** The longest names the server takes: a tree name of 128 characters, a backup name of 200. */
const LONG_TREE = `customers-${'x'.repeat(118)}`;
const LONG_BACKUP = `customers full baseline ${'y'.repeat(176)}`;

interface Seeded {
  fullId: string;
  incrementalId: string;
  captureOperationId: string;
}

/** A tree and a full + incremental backup with the longest names there are. */
async function seed(api: StoreApi): Promise<Seeded> {
  for (let i = 0; i < 5; i++) {
    await api.data.putEntry({
      treeId: LONG_TREE,
      key: `customer/${'k'.repeat(60)}-${i}`,
      valueJson: JSON.stringify({ name: `Customer ${i}`, note: 'z'.repeat(300) }),
    });
  }
  const full = await api.backup.startBackup({ name: LONG_BACKUP, scope: { treeId: LONG_TREE } });
  const fullId = await capturedBackupId(api, full.operationId);
  await api.data.putEntry({ treeId: LONG_TREE, key: 'customer/late', valueJson: '{"late":true}' });
  const incremental = await api.backup.startIncrementalBackup({
    name: `${LONG_BACKUP.slice(0, 190)} incr`,
    scope: { treeId: LONG_TREE },
    baseBackupId: fullId,
  });
  const incrementalId = await capturedBackupId(api, incremental.operationId);
  return { fullId, incrementalId, captureOperationId: full.operationId };
}

function visits(seeded: Seeded): RouteVisit[] {
  const { fullId, incrementalId, captureOperationId } = seeded;
  return [
    { pattern: '/sign-in', url: '/sign-in', heading: 'Store Admin Console', signedOut: true },
    {
      pattern: '/auth/callback',
      url: '/auth/callback',
      heading: 'Sign-in failed',
      signedOut: true,
    },
    { pattern: 'index', url: '/', heading: 'Dashboard' },
    { pattern: 'backups', url: '/backups', heading: 'Backups' },
    {
      pattern: 'backups/compare',
      url: `/backups/compare?from=${fullId}&to=${incrementalId}`,
      heading: 'Compare backups',
    },
    { pattern: 'backups/:backupId', url: `/backups/${incrementalId}`, heading: /customers full/ },
    { pattern: 'operations', url: '/operations', heading: 'Operations' },
    {
      pattern: 'operations/:operationId',
      url: `/operations/${captureOperationId}`,
      heading: /./,
    },
    { pattern: 'schedules', url: '/schedules', heading: 'Schedules' },
    { pattern: 'schedules/overview', url: '/schedules/overview', heading: 'Schedule overview' },
    { pattern: 'retention', url: `/retention?tree=${LONG_TREE}`, heading: 'Retention' },
    { pattern: 'health', url: `/health?backup=${fullId}`, heading: 'Health' },
    { pattern: 'trees', url: '/trees', heading: 'Trees' },
    { pattern: 'trees/:treeId', url: `/trees/${LONG_TREE}`, heading: /customers-x/ },
    { pattern: 'schema', url: '/schema', heading: 'Schema' },
    { pattern: 'schema/:treeId', url: `/schema/${LONG_TREE}`, heading: 'Schema' },
    { pattern: 'maintenance', url: '/maintenance', heading: 'Maintenance' },
    { pattern: 'notifications', url: '/notifications', heading: 'Notifications' },
    { pattern: 'audit', url: '/audit', heading: 'Audit' },
    { pattern: '*', url: '/no-such-page', heading: /not found/i },
  ];
}

test.describe('every route, phone to wide screen', () => {
  test('the walk covers every route of the route table', () => {
    const walked = visits({ fullId: 'a', incrementalId: 'b', captureOperationId: 'c' });
    expect(walked.map((visit) => visit.pattern).sort()).toEqual(declaredRoutePatterns().sort());
  });

  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test(`at ${viewport.width}×${viewport.height} no route is wider than the window, and axe finds nothing serious`, async ({
      page,
      tenant,
    }, testInfo) => {
      test.setTimeout(300_000);
      const seeded = await seed(tenant.api);
      const walk = visits(seeded);
      await page.setViewportSize(viewport);
      const check = async (visit: RouteVisit) => {
        await openRoute(page, visit);
        const name = visit.pattern === '*' ? 'not-found' : visit.pattern.replace(/[/:]+/g, '_');
        await page.screenshot({ path: `/tmp/shots/routes/${name}-${size}.png`, fullPage: true });
        const widths = await pageWidths(page);
        // Soft: one run names every route that overflows, not only the first.
        expect
          .soft(
            widths.scrollWidth,
            `${visit.url} at ${size}: ${(await elementsPastTheEdge(page)).join(', ')}`,
          )
          .toBeLessThanOrEqual(widths.innerWidth);
        // On a phone no word is cut mid-letter to make a column narrower.
        expect.soft(await brokenWords(page), `${visit.url} at ${size}: words broken`).toEqual([]);
        await expectNoSeriousA11yViolations(page, testInfo);
      };
      for (const visit of walk.filter((v) => v.signedOut)) await check(visit);
      // Signing in waits for the navigation, which a phone keeps behind the menu button.
      await page.setViewportSize(VIEWPORTS.wide);
      await signInWithToken(page, tenant.admin.token);
      await page.setViewportSize(viewport);
      for (const visit of walk.filter((v) => !v.signedOut)) await check(visit);
    });
  }

  test('on a phone the navigation is behind a menu button, and following a link folds it', async ({
    page,
    tenant,
  }) => {
    await signInWithToken(page, tenant.admin.token);
    await page.setViewportSize(VIEWPORTS.phone);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await nav.getByRole('link', { name: 'Trees' }).click();
    const heading = page.getByRole('heading', { level: 1, name: 'Trees' });
    await expect(heading).toBeVisible();
    // The folded nav takes no room: the page starts right under the header (a short page once
    // began 350 px down, the nav's grid row taking the height the page left).
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect((await heading.boundingBox())!.y).toBeLessThan(160);
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    // Wide again: the navigation is always there and the menu button is not.
    await page.setViewportSize(VIEWPORTS.wide);
    await expect(nav).toBeVisible();
    await expect(menu).toBeHidden();
  });

  test('a 200-character backup name and a 128-character tree name stay on screen, whole on hover', async ({
    page,
    tenant,
  }) => {
    await seed(tenant.api);
    await signInWithToken(page, tenant.admin.token);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.goto('/backups');
    const name = page.getByRole('link', { name: LONG_BACKUP, exact: true });
    await expect(name).toBeVisible();
    await expect(name).toHaveAttribute('title', LONG_BACKUP);
    const box = await name.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
    await page.goto('/trees');
    const tree = page.getByRole('link', { name: LONG_TREE, exact: true });
    await expect(tree).toHaveAttribute('title', LONG_TREE);
    const treeBox = await tree.boundingBox();
    expect(treeBox!.x + treeBox!.width).toBeLessThanOrEqual(VIEWPORTS.phone.width);
  });
});
