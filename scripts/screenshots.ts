// `npm run screenshots`: starts the built server on a fresh data directory, seeds a tenant as it
// looks after some weeks of use, and photographs every route of the console at 1440×900 and
// 390×844 in Debian's Chromium. Every page goes to /tmp/shots/walk/ (whole page, for review);
// the few the README shows go to docs/screenshots/ (the window only, to stay small).
// `--out <dir>` changes the review folder; `--no-readme` leaves docs/screenshots/ alone;
// `--slices` also cuts each long page into pieces two windows tall (outDir/slices/). A viewer's
// view of the pages with actions follows, at the wide size (`<name>-viewer-wide.png`).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { SERVER_NODE_FLAGS } from '../server/node-flags.mjs';
import { declaredRoutePatterns, VIEWPORTS } from '../e2e/pages/app-routes';
import { freePort } from '../e2e/support/free-port';
import { README_SHOTS, shots, VIEWER_SHOTS, type Shot } from './screenshots/routes';
import { seedApi, seedTenant, startSlowCapture } from './screenshots/seed';
import { waitForHealthy } from './screenshots/wait-for-healthy';

const root = new URL('..', import.meta.url).pathname;
const TENANT = 'acme';
const args = process.argv.slice(2);
const outDir = args.includes('--out') ? args[args.indexOf('--out') + 1]! : '/tmp/shots/walk';
const readmeDir = join(root, 'docs/screenshots');

function run(command: string, commandArgs: string[], env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(command, commandArgs, {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`${command} ${commandArgs.join(' ')} failed`);
  return result.stdout;
}

/** A named token from the token CLI, so "By" columns show a person, not "bootstrap". */
function issueToken(dataDir: string, role: string, name: string): string {
  const out = run(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/src/cli/token-cli.ts',
      'create',
      '--tenant',
      TENANT,
      '--role',
      role,
      '--name',
      name,
    ],
    { STORE_DATA_DIR: dataDir },
  );
  const token = /^(st_\S+)$/m.exec(out)?.[1];
  if (!token) throw new Error(`unexpected token CLI output:\n${out}`);
  return token;
}

/** Opens a shot's route and waits for its heading and for every loading marker to go. */
async function open(page: Page, shot: Shot): Promise<void> {
  await page.goto(shot.url);
  await page.getByRole('heading', { level: 1, name: shot.heading }).first().waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached' });
  if (shot.gone) await page.locator(shot.gone).first().waitFor({ state: 'detached' });
  // Charts and the tray settle after their data; a still page photographs the same each run.
  await page.waitForTimeout(400);
}

/**
 * A long page in pieces two windows tall (`--slices`): an image viewer shrinks a whole phone page
 * of 4 000 px until its text cannot be read.
 */
async function slices(page: Page, prefix: string, size: string): Promise<void> {
  const { width, height } = page.viewportSize()!;
  const total = await page.evaluate(() => document.documentElement.scrollHeight);
  mkdirSync(join(prefix, '..'), { recursive: true });
  for (let y = 0, n = 1; y < total; y += 2 * height, n++) {
    const clip = { x: 0, y, width, height: Math.min(2 * height, total - y) };
    await page.screenshot({ path: `${prefix}-${size}-${n}.png`, fullPage: true, clip });
  }
}

async function signIn(page: Page, token: string): Promise<void> {
  await page.setViewportSize(VIEWPORTS.wide);
  await page.goto('/sign-in');
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in with API token' }).click();
  await page.getByRole('navigation', { name: /main/i }).waitFor();
}

async function main(): Promise<void> {
  run(process.execPath, ['scripts/build-if-stale.mjs']);
  const dataDir = mkdtempSync(join(tmpdir(), 'store-shots-'));
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  const server = spawn(
    process.execPath,
    [...SERVER_NODE_FLAGS, join(root, 'server/dist/main.js')],
    {
      cwd: root,
      env: {
        ...process.env,
        STORE_DATA_DIR: dataDir,
        STORE_HTTP_PORT: String(httpPort),
        STORE_GRPC_PORT: String(grpcPort),
        STORE_BOOTSTRAP_TENANT: TENANT,
        STORE_BOOTSTRAP_TOKEN: `st_shots_${randomBytes(24).toString('hex')}`,
        STORE_AUTHORIZER: 'rbac',
        STORE_HEALTH_MONITORING: 'true',
        STORE_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    await waitForHealthy(baseUrl);
    const admin = issueToken(dataDir, 'admin', 'Dana Ortiz');
    const api = seedApi(baseUrl, admin, TENANT);
    console.log('› seeding the tenant');
    const seeded = { ...(await seedTenant(api)), runningOperationId: await startSlowCapture(api) };
    const walk = shots(seeded);
    const missing = declaredRoutePatterns().filter((p) => !walk.some((s) => s.pattern === p));
    if (missing.length > 0) throw new Error(`the walk misses routes: ${missing.join(', ')}`);

    mkdirSync(outDir, { recursive: true });
    const page = await browser.newPage({ baseURL: baseUrl });
    const overflowing: string[] = [];
    for (const signedOut of [true, false]) {
      if (!signedOut) await signIn(page, admin);
      for (const [size, viewport] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(viewport);
        for (const shot of walk.filter((s) => !!s.signedOut === signedOut)) {
          await open(page, shot);
          const file = join(outDir, `${shot.name}-${size}.png`);
          await page.screenshot({ path: file, fullPage: true });
          if (args.includes('--slices'))
            await slices(page, join(outDir, 'slices', shot.name), size);
          const readme = README_SHOTS.find((r) => r.name === shot.name && r.size === size);
          if (readme && !args.includes('--no-readme')) {
            mkdirSync(readmeDir, { recursive: true });
            await page.screenshot({ path: join(readmeDir, `${shot.name}-${size}.png`) });
          }
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > viewport.width) overflowing.push(`${shot.url} at ${size}: ${width}px`);
          console.log(`  ${file}`);
        }
      }
    }
    // A viewer's pages: every action they may not take disabled with its reason.
    const viewerPage = await browser.newPage({ baseURL: baseUrl });
    await signIn(viewerPage, issueToken(dataDir, 'viewer', 'Read-only desk'));
    for (const shot of walk.filter((s) => VIEWER_SHOTS.includes(s.name))) {
      await open(viewerPage, shot);
      const file = join(outDir, `${shot.name}-viewer-wide.png`);
      await viewerPage.screenshot({ path: file, fullPage: true });
      console.log(`  ${file}`);
    }
    if (overflowing.length > 0)
      console.log(`wider than the window:\n  ${overflowing.join('\n  ')}`);
    await api.backup.cancelBackupOperation({ operationId: seeded.runningOperationId });
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
