// Row 7: the console as a browser gets it — gzip size of the JavaScript index.html loads up front
// (entry + modulepreloads; lazy chunks excluded), and the time from navigating to /backups to
// its first catalog row with 10 000 backups, in headless Chromium against the real server.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { BENCH_TOKEN, startBenchServer } from '../lib/bench-server.js';
import { openRawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { percentile, sorted } from '../lib/stats.js';
import { seedCatalog } from './catalog.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const FIRST_ROW = '[data-testid="backup-row"]';
const LOADS = 5;

export function buildConsole(outDir: string): void {
  const result = spawnSync(
    join(ROOT, 'node_modules/.bin/vite'),
    ['build', 'web', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`vite build failed: ${result.stderr}`);
}

/** Gzip (level 9, what a static server would send) of every script index.html loads eagerly. */
function initialJsGzipBytes(outDir: string): { gzip: number; raw: number; files: number } {
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const urls = [
    ...html.matchAll(/<script[^>]+type="module"[^>]*src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g),
  ].map((m) => m[1] ?? '');
  if (urls.length === 0) throw new Error('index.html loads no script');
  let gzip = 0;
  let raw = 0;
  for (const url of urls) {
    const bytes = readFileSync(join(outDir, url));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { gzip, raw, files: urls.length };
}

async function timeToFirstRow(outDir: string, backups: number, log: (l: string) => void) {
  const s = await startBenchServer('sqlite', { STORE_STATIC_DIR: outDir });
  const raw = await openRawDb(s.t.location);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    await seedCatalog(raw, 0, backups);
    const page = await browser.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${s.t.server.httpUrl}/sign-in`);
    await page.getByLabel('API token').fill(BENCH_TOKEN);
    await page.getByRole('button', { name: 'Sign in with API token' }).click();
    await page.getByRole('navigation', { name: /main/i }).waitFor();
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      // A full navigation each time (the session lives in this tab's sessionStorage); the
      // figure is the page's own clock at the first rendered row, from navigation start.
      await page.goto(`${s.t.server.httpUrl}/backups`, { waitUntil: 'commit' });
      const handle = await page.waitForFunction(
        (selector) => (document.querySelector(selector) ? performance.now() : 0),
        FIRST_ROW,
        { polling: 'raf' },
      );
      times.push((await handle.jsonValue()) as number);
    }
    log(`first row after ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
    return sorted(times);
  } finally {
    await browser.close();
    await raw.close();
    await s.dispose();
  }
}

export async function webRows(
  sizes: Sizes,
  log: (line: string) => void,
  options: { browser: boolean },
): Promise<BenchRow[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-web-'));
  try {
    buildConsole(outDir);
    const bundle = initialJsGzipBytes(outDir);
    const rows: BenchRow[] = [
      {
        row: 7,
        name: 'initial JavaScript, gzip',
        dialect: '-',
        figure: bundle.gzip / 1024,
        unit: 'KiB',
        detail: `${(bundle.raw / 1024).toFixed(0)} KiB raw, ${bundle.files} files`,
        baselineName: 'no baseline',
        baseline: null,
        ratio: null,
        target: null,
      },
    ];
    if (options.browser) {
      const times = await timeToFirstRow(outDir, sizes.webBackups, log);
      rows.push({
        row: 7,
        name: `/backups to first row, ${sizes.webBackups.toLocaleString('en-US')} backups`,
        dialect: 'sqlite',
        figure: percentile(times, 50),
        unit: 'ms median',
        detail: `worst of ${times.length}: ${(times.at(-1) ?? NaN).toFixed(0)} ms`,
        baselineName: 'no baseline',
        baseline: null,
        ratio: null,
        target: null,
      });
    }
    return rows;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
