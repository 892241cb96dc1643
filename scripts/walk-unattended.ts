// `npm run walk:unattended`: issue 33's walk as a new admin would take it, in Debian's Chromium
// against the built server on a fresh data directory: four backups, one corrupted on disk and
// found by "Verify stale backups"; keep-last-2 rules turned on to apply after each scheduled
// backup (the confirm shows what they delete now); a real schedule fires (about a minute) and
// retention runs by itself; a capture is running when the server stops, then it starts again on
// the same data; 25 wrong tokens from one browser, then a valid one. Every step is photographed
// at 1440×900 and 390×844 into /tmp/shots/unattended/ (`--out <dir>`), for a person to look at.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { durationFromMs, StoreOperationState } from '@store/contract';
import { SERVER_NODE_FLAGS } from '../server/node-flags.mjs';
import { freePort } from './edge/free-port';
import { seedApi, startSlowCapture, type SeedApi } from './screenshots/seed';
import { waitForHealthy } from './screenshots/wait-for-healthy';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const out = args.includes('--out') ? args[args.indexOf('--out') + 1]! : '/tmp/shots/unattended';
mkdirSync(out, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), 'walk-unattended-'));
const token = `st_walk_${randomBytes(24).toString('hex')}`;
spawnSync(process.execPath, [join(root, 'scripts/build-if-stale.mjs')], { stdio: 'inherit' });
const port = await freePort();
const grpcPort = await freePort();
const base = `http://127.0.0.1:${port}`;

function start(): ChildProcess {
  const p = spawn(process.execPath, [...SERVER_NODE_FLAGS, join(root, 'server/dist/main.js')], {
    env: {
      ...process.env,
      STORE_DATA_DIR: dataDir,
      STORE_HTTP_PORT: String(port),
      STORE_GRPC_PORT: String(grpcPort),
      STORE_BOOTSTRAP_TENANT: 'acme',
      STORE_BOOTSTRAP_TOKEN: token,
      STORE_HEALTH_MONITORING: 'true',
      STORE_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return p;
}
async function finished(api: SeedApi, id: string): Promise<StoreOperationState> {
  for (;;) {
    const { status: s } = await api.backup.getBackupOperationStatus({ operationId: id });
    if (s && s.state >= StoreOperationState.SUCCEEDED) return s.state;
    await new Promise((r) => setTimeout(r, 200));
  }
}
async function shot(page: Page, name: string, full = false): Promise<void> {
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: full });
  console.log('shot', name);
}
async function both(page: Page, name: string, full = false): Promise<void> {
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, `${name}-1440`, full);
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, `${name}-390`, full);
  await page.setViewportSize({ width: 1440, height: 900 });
}
async function signIn(page: Page, t: string): Promise<void> {
  await page.goto(`${base}/sign-in`);
  await page.getByLabel('API token').fill(t);
  await page.getByRole('button', { name: 'Sign in with API token' }).click();
}

let server = start();
try {
  await waitForHealthy(base);
  const api = seedApi(base, token, 'acme');
  const ids: string[] = [];
  for (let i = 1; i <= 4; i++) {
    await api.data.putEntry({ treeId: 'ledger', key: `row-${i}`, valueJson: `{"n":${i}}` });
    const op = await api.backup.startBackup({
      name: `ledger full ${i}`,
      scope: { treeId: 'ledger' },
    });
    await finished(api, op.operationId);
    const { status: s } = await api.backup.getBackupOperationStatus({
      operationId: op.operationId,
    });
    ids.push((s!.result.value as { backupId: string }).backupId);
  }
  // Corrupt the newest backup's artifact on disk.
  const dir = join(dataDir, 'artifacts', 'acme', ids[3]!);
  const part = readdirSync(dir).find((f) => f.startsWith('part-'))!;
  const bytes = readFileSync(join(dir, part));
  const middle = Math.floor(bytes.length / 2);
  bytes[middle] = (bytes[middle] ?? 0) ^ 0xff;
  writeFileSync(join(dir, part), bytes);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const page = await (
    await browser.newContext({ viewport: { width: 1440, height: 900 } })
  ).newPage();
  await signIn(page, token);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  // "Verify stale backups" on the health page finds the corrupt one.
  await page.goto(`${base}/health#verify-stale`);
  await page.getByRole('heading', { name: 'Verify stale backups' }).waitFor();
  await page.getByRole('button', { name: 'Verify stale backups' }).click();
  await page.waitForTimeout(5000);
  await both(page, '03-verify-result', true);
  await page.goto(`${base}/`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await page.waitForTimeout(1500);
  await both(page, '03b-dashboard-after-verify');
  await page.goto(`${base}/backups/${ids[3]}`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await both(page, '04-corrupt-backup-page', true);
  // Retention: keep last 2, automatic apply chosen at save.
  await page.goto(`${base}/retention?tree=ledger`);
  await page.getByLabel('Keep last', { exact: true }).fill('2');
  await both(page, '05-retention-draft', true);
  await page
    .getByRole('checkbox', { name: 'Apply after each scheduled backup of this scope' })
    .check();
  await page.getByRole('button', { name: 'Save rules' }).click();
  await page.getByRole('dialog').waitFor();
  await both(page, '06-auto-apply-confirm');
  await page.getByRole('button', { name: 'Save and apply after each backup' }).click();
  await page.waitForTimeout(1500);
  await both(page, '07-retention-saved', true);
  // A real schedule, every minute.
  await api.backup.scheduleBackup({
    scope: { treeId: 'ledger' },
    incremental: false,
    interval: durationFromMs(60_000),
  });
  await page.goto(`${base}/schedules/overview`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await both(page, '08-schedules-overview', true);
  await page.goto(`${base}/operations`);
  console.log('waiting for the scheduled capture and retention…');
  await page.waitForTimeout(80_000);
  await both(page, '09-operations-after-schedule', true);
  await api.backup.cancelSchedule({ scope: { treeId: 'ledger' } });
  await page.goto(`${base}/audit`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  await both(page, '10-audit', true);
  await page.goto(`${base}/retention?tree=ledger`);
  await page.waitForTimeout(1500);
  await both(page, '11-retention-after', true);
  // Stop the server mid-operation.
  await startSlowCapture(api);
  await page.goto(`${base}/operations`);
  await page.waitForTimeout(3000);
  await both(page, '12-capture-running');
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  await page.waitForTimeout(8000);
  await both(page, '13-server-gone');
  server = start();
  await waitForHealthy(base);
  await page.waitForTimeout(20000);
  await both(page, '14-server-back');
  // Lock-out: 25 wrong tokens from this browser, then the valid one.
  const other = await (
    await browser.newContext({ viewport: { width: 390, height: 844 } })
  ).newPage();
  for (let i = 0; i < 25; i++) {
    await other.goto(`${base}/sign-in`);
    await other.getByLabel('API token').fill(`st_wrong_${i}_${randomBytes(16).toString('hex')}`);
    await other.getByRole('button', { name: 'Sign in with API token' }).click();
    await other.waitForTimeout(300);
  }
  await shot(other, '15-lockout-390');
  await other.setViewportSize({ width: 1440, height: 900 });
  await shot(other, '15-lockout-1440');
  await other.getByLabel('API token').fill(token);
  await other.getByRole('button', { name: 'Sign in with API token' }).click();
  await other.waitForTimeout(3000);
  await shot(other, '16-valid-after-lockout-1440');
  await browser.close();
} finally {
  server.kill('SIGTERM');
  console.log(`screenshots in ${out}; the server's data in ${dataDir}`);
}
