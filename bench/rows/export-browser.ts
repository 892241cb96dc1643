// Row 20 (issue 25, bullet 6): the console's own download of an artifact of a real capture in
// headless Chromium (connect-web's gRPC-Web stream, the SHA-256 check, the Blob handed to the
// browser as a download), against the same page fetching the same bytes as a static file from
// the same server, same run. The console is `vite build web`, served by the real server.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Download as BrowserDownload, type Page } from 'playwright-core';
import type { Dialect } from '../../server/src/storage/database.js';
import { BENCH_TOKEN, startBenchServer } from '../lib/bench-server.js';
import { capturedArtifact, type CapturedArtifact } from '../lib/captured-artifact.js';
import { openRawDb } from '../lib/raw-db.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { MB } from '../lib/stats.js';
import { buildConsole } from './web.js';

const RUNS = 3;

/**
 * The page's own clock: when a download starts (an Export button's click, or the baseline's
 * fetch) and when the finished Blob's anchor is clicked. The anchor click is the moment the
 * console has every byte, has checked size and SHA-256 and hands the file over; what Chromium
 * does after it (writing the Blob to disk) is the same for both sides and is reported beside.
 */
const CLOCK = `
  window.__download = {};
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (this.download && this.href.startsWith('blob:')) window.__download.saved = performance.now();
    return click.call(this);
  };
  document.addEventListener('click', (event) => {
    const target = event.target;
    if (target instanceof Element && target.closest('button[aria-label^="Export "]'))
      window.__download.started = performance.now();
  }, true);
`;

/**
 * The console as a browser without the File System Access API sees it: headless Chromium has a
 * picker that answers as if the user had closed it, and this row times the download path (Blob
 * parts saved through a link); row 27 measures the picked-file path.
 */
export const NO_PICKER = `
  Reflect.deleteProperty(window, 'showSaveFilePicker');
  Reflect.deleteProperty(Window.prototype, 'showSaveFilePicker');
`;

interface Timing {
  /** Page clock: start → the finished Blob's anchor click. */
  pageMs: number;
  /** Bench clock: start → Chromium has written the file. */
  savedMs: number;
}

type Clocked = Window & { __download: { started?: number; saved?: number } };

async function checkedSave(download: BrowserDownload, artifact: CapturedArtifact): Promise<void> {
  const path = await download.path();
  const bytes = readFileSync(path);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (bytes.length !== artifact.bytes || sha256 !== artifact.sha256)
    throw new Error('a browser download did not save the artifact byte for byte');
  await download.delete();
}

/** The console's Export button, as a user clicks it, until the saved file is on disk. */
async function consoleDownload(page: Page, artifact: CapturedArtifact): Promise<Timing> {
  const button = page.getByRole('button', { name: `Export ${artifact.artifactId}` });
  await button.waitFor();
  await page.evaluate(() => ((window as unknown as Clocked).__download = {}));
  const begun = performance.now();
  const download = page.waitForEvent('download', { timeout: 120_000 });
  await button.click();
  await checkedSave(await download, artifact);
  const savedMs = performance.now() - begun;
  const clock = await page.evaluate(() => (window as unknown as Clocked).__download);
  if (clock.started === undefined || clock.saved === undefined)
    throw new Error('the page clock missed the export click or the save');
  // The next round starts once the console has finished (its button is enabled again).
  await page.waitForFunction(
    (name) => !document.querySelector<HTMLButtonElement>(`button[aria-label="${name}"]`)?.disabled,
    `Export ${artifact.artifactId}`,
  );
  return { pageMs: clock.saved - clock.started, savedMs };
}

/** The same page fetching the same bytes as a static file, saved through the same kind of link. */
async function staticDownload(page: Page, artifact: CapturedArtifact): Promise<Timing> {
  const begun = performance.now();
  const download = page.waitForEvent('download', { timeout: 120_000 });
  const pageMs = await page.evaluate(async (name) => {
    const clocked = window as unknown as Clocked;
    clocked.__download = {};
    const started = performance.now();
    const response = await fetch(`/${name}`, { cache: 'no-store' });
    const blob = await response.blob();
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
    return (clocked.__download.saved ?? NaN) - started;
  }, artifact.staticName);
  await checkedSave(await download, artifact);
  return { pageMs, savedMs: performance.now() - begun };
}

export async function exportBrowserRow(
  dialect: Dialect,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow> {
  const outDir = mkdtempSync(join(tmpdir(), 'bench-export-browser-'));
  buildConsole(outDir);
  const s = await startBenchServer(dialect, { STORE_STATIC_DIR: outDir });
  const raw = await openRawDb(s.t.location);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    const artifact = await capturedArtifact(s, raw, outDir, sizes.entries);
    log(
      `captured ${artifact.entries} entries: ${artifact.artifactId}, ${(artifact.bytes / MB).toFixed(1)} MB`,
    );
    const page = await browser.newPage({ acceptDownloads: true });
    page.setDefaultTimeout(60_000);
    await page.addInitScript(NO_PICKER);
    await page.addInitScript(CLOCK);
    await page.goto(`${s.t.server.httpUrl}/sign-in`);
    await page.getByLabel('API token').fill(BENCH_TOKEN);
    await page.getByRole('button', { name: 'Sign in with API token' }).click();
    await page.getByRole('navigation', { name: /main/i }).waitFor();
    await page.goto(`${s.t.server.httpUrl}/backups/${encodeURIComponent(artifact.backupId)}`);

    // One untimed download of each first (code paths and caches warm), then alternating rounds,
    // best of each: on a shared machine, load bursts only ever slow a round down.
    await consoleDownload(page, artifact);
    await staticDownload(page, artifact);
    const consoleRuns: Timing[] = [];
    const staticRuns: Timing[] = [];
    for (let run = 0; run < RUNS; run++) {
      consoleRuns.push(await consoleDownload(page, artifact));
      staticRuns.push(await staticDownload(page, artifact));
    }
    const show = (runs: Timing[]) => runs.map((r) => r.pageMs.toFixed(0)).join(', ');
    log(`console ${show(consoleRuns)} ms; static ${show(staticRuns)} ms`);
    const best = (runs: Timing[], key: keyof Timing) => Math.min(...runs.map((r) => r[key]));
    const rate = (ms: number) => (artifact.bytes / MB) * (1000 / ms);
    const [consoleMs, staticMs] = [best(consoleRuns, 'pageMs'), best(staticRuns, 'pageMs')];
    const [consoleSaved, staticSaved] = [best(consoleRuns, 'savedMs'), best(staticRuns, 'savedMs')];
    return {
      row: 20,
      name: `console download in Chromium, ${(artifact.bytes / MB).toFixed(1)} MB of a real capture`,
      dialect,
      figure: rate(consoleMs),
      unit: 'MB/s',
      detail:
        `best of ${RUNS}: ${consoleMs.toFixed(0)} ms to the saved Blob's click; to the file on ` +
        `disk ${consoleSaved.toFixed(0)} ms vs ${staticSaved.toFixed(0)} ms static ` +
        `(ratio ${(staticSaved / consoleSaved).toFixed(3)})`,
      baselineName: `the same page fetching it as a static file (${staticMs.toFixed(0)} ms)`,
      baseline: rate(staticMs),
      ratio: staticMs / consoleMs,
      target: { kind: 'min', value: 0.3 },
    };
  } finally {
    await browser.close();
    await raw.close();
    await s.dispose();
    rmSync(outDir, { recursive: true, force: true });
  }
}
