// Row 27 (issue 37, bullet 5): the console's Export of a 1 GiB artifact (4 MiB with --quick) in
// headless Chromium, written to a picked file (the picker answered with a real OPFS file, as in
// e2e/export-to-disk.spec.ts), with the tab's memory sampled all along: the peak growth of its
// renderer processes' RSS (and of the JS heap, CDP Performance.getMetrics) over the same tab idle
// on the same page just before, same run. The Blob-parts path of browsers without the picker is
// measured the same way beside it (a fresh browser), with the browser process's growth, where
// Chromium's blob storage keeps (or pages to disk) what the tab hands over.
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import type { Dialect } from '../../server/src/storage/database.js';
import { BENCH_TOKEN, startBenchServer, type BenchServer } from '../lib/bench-server.js';
import type { BenchRow } from '../lib/results.js';
import type { Sizes } from '../lib/sizes.js';
import { MB } from '../lib/stats.js';
import { EXPORT_JOB, exportArtifact } from './export.js';
import { NO_PICKER } from './export-browser.js';
import { buildConsole } from './web.js';

/** The bound on the tab's growth, for a 1 GB export. */
const BOUND_BYTES = 100 * MB;
const SAMPLE_MS = 100;

/** The picker answered with a new OPFS file of the suggested name (a real file, real writable). */
const PICKER_INTO_OPFS = `
  Object.defineProperty(window, 'showSaveFilePicker', {
    configurable: true,
    value: async ({ suggestedName }) =>
      (await navigator.storage.getDirectory()).getFileHandle(suggestedName, { create: true }),
  });
`;

/** Every process under this one whose command line says `--type=<type>` (Chromium's kinds). */
function chromiumProcesses(): { pid: number; type: string }[] {
  const parents = new Map<number, number>();
  const types = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parents.set(pid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes('chrom'))
        types.set(pid, /--type=([a-z-]+)/.exec(cmdline)?.[1] ?? 'browser');
    } catch {
      // The process ended while we looked.
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p))
      if (p === process.pid) return true;
    return false;
  };
  return [...types].filter(([pid]) => descends(pid)).map(([pid, type]) => ({ pid, type }));
}

function rssBytes(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

interface Memory {
  renderer: number;
  browser: number;
  jsHeap: number;
}

async function sample(cdp: CDPSession): Promise<Memory> {
  const processes = chromiumProcesses();
  const sum = (type: string) =>
    processes.filter((p) => p.type === type).reduce((n, p) => n + rssBytes(p.pid), 0);
  const { metrics } = await cdp.send('Performance.getMetrics');
  const jsHeap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
  return { renderer: sum('renderer'), browser: sum('browser'), jsHeap };
}

interface Pass {
  idle: Memory;
  peakGrowth: Memory;
  ms: number;
}

/** The page signed in and on the backup's page, its Export button there. */
async function backupPage(context: BrowserContext, s: BenchServer, init: string): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await page.addInitScript(init);
  await page.goto(`${s.t.server.httpUrl}/sign-in`);
  await page.getByLabel('API token').fill(BENCH_TOKEN);
  await page.getByRole('button', { name: 'Sign in with API token' }).click();
  await page.getByRole('navigation', { name: /main/i }).waitFor();
  await page.goto(`${s.t.server.httpUrl}/backups/${encodeURIComponent(EXPORT_JOB.backupId)}`);
  await page.getByRole('button', { name: `Export ${EXPORT_JOB.artifactId}` }).waitFor();
  return page;
}

/** The memory of `page`'s browser idle (after a GC and a second), then its peaks during `run`. */
async function measure(page: Page, run: () => Promise<void>): Promise<Pass> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  await page.waitForTimeout(1_000);
  const idle = await sample(cdp);
  const peak = { ...idle };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const now = await sample(cdp);
      peak.renderer = Math.max(peak.renderer, now.renderer);
      peak.browser = Math.max(peak.browser, now.browser);
      peak.jsHeap = Math.max(peak.jsHeap, now.jsHeap);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  const begun = performance.now();
  try {
    await run();
  } finally {
    sampling = false;
    await sampler;
  }
  const ms = performance.now() - begun;
  await cdp.detach();
  return {
    idle,
    ms,
    peakGrowth: {
      renderer: peak.renderer - idle.renderer,
      browser: peak.browser - idle.browser,
      jsHeap: peak.jsHeap - idle.jsHeap,
    },
  };
}

/** Clicks Export and waits for the console to call the file verified. */
async function consoleExport(page: Page): Promise<void> {
  await page.getByRole('button', { name: `Export ${EXPORT_JOB.artifactId}` }).click();
  const verified = page.getByText(/SHA-256 verified against the manifest/);
  const failed = page.getByText('Export failed');
  await verified
    .or(failed)
    .first()
    .waitFor({ timeout: 20 * 60_000 });
  if (await failed.isVisible()) throw new Error(`the console's export failed`);
}

/**
 * The platform's own floor: the same page reading the same bytes as a static file through
 * fetch's body stream, each chunk dropped as it comes (what any streaming reader costs a tab):
 * with the default reader (a new ArrayBuffer per chunk, as connect-web reads) and with a BYOB
 * reader filling one reused 1 MiB buffer (as the console reads an export).
 */
async function staticStream(page: Page, bytes: number, mode: 'default' | 'byob'): Promise<void> {
  const read = await page.evaluate(
    async ({ name, mode }) => {
      const response = await fetch(`/${name}`, { cache: 'no-store' });
      let total = 0;
      if (mode === 'byob') {
        const reader = response.body!.getReader({ mode: 'byob' });
        let buffer = new ArrayBuffer(1024 * 1024);
        for (;;) {
          const { done, value } = await reader.read(new Uint8Array(buffer));
          if (done) break;
          total += value.byteLength;
          buffer = value.buffer;
        }
        return total;
      }
      const reader = response.body!.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read())
        total += next.value.byteLength;
      return total;
    },
    { name: EXPORT_JOB.staticName, mode },
  );
  if (read !== bytes) throw new Error(`the static stream read ${read} of ${bytes} bytes`);
}

async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 8 * MB }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * A browser with a profile on disk, as a person's is: a Playwright context without one is
 * incognito, where Chromium keeps OPFS files and Blobs in the browser process's memory.
 */
async function launch(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    acceptDownloads: true,
  });
}

export async function exportBrowserMemoryRow(
  dialect: Dialect,
  sizes: Sizes,
  log: (line: string) => void,
): Promise<BenchRow> {
  const bytes = sizes.smoke ? 4 * MB : 1024 * MB;
  const outDir = mkdtempSync(join(tmpdir(), 'bench-export-memory-'));
  buildConsole(outDir);
  const s = await startBenchServer(dialect, { STORE_STATIC_DIR: outDir });
  try {
    const sha256 = await exportArtifact(s, outDir, bytes);
    log(`seeded a ${(bytes / MB).toFixed(0)} MiB artifact`);
    const mb = (n: number) => `${(n / MB).toFixed(1)} MB`;

    const fileName = `${EXPORT_JOB.backupId}-${EXPORT_JOB.artifactId}.ndjson.gz`;

    // The picked-file path (Chromium, Edge, Opera), then the static stream in the same tab.
    let context = await launch(join(outDir, 'profile-picked'));
    let picked: Pass;
    let floor: Pass;
    let byobFloor: Pass;
    try {
      const page = await backupPage(context, s, PICKER_INTO_OPFS);
      picked = await measure(page, () => consoleExport(page));
      const written = await page.evaluate(
        async (name) =>
          (await (await (await navigator.storage.getDirectory()).getFileHandle(name)).getFile())
            .size,
        fileName,
      );
      if (written !== bytes) throw new Error(`the picked file holds ${written} of ${bytes} bytes`);
      floor = await measure(page, () => staticStream(page, bytes, 'default'));
      byobFloor = await measure(page, () => staticStream(page, bytes, 'byob'));
    } finally {
      await context.close();
    }
    log(
      `picked file: ${picked.ms.toFixed(0)} ms; renderer +${mb(picked.peakGrowth.renderer)} ` +
        `(idle ${mb(picked.idle.renderer)}), browser process +${mb(picked.peakGrowth.browser)}, ` +
        `JS heap +${mb(picked.peakGrowth.jsHeap)}`,
    );
    log(
      `static stream: ${floor.ms.toFixed(0)} ms; renderer +${mb(floor.peakGrowth.renderer)}, ` +
        `JS heap +${mb(floor.peakGrowth.jsHeap)}`,
    );
    log(
      `static stream, BYOB reader: ${byobFloor.ms.toFixed(0)} ms; renderer ` +
        `+${mb(byobFloor.peakGrowth.renderer)}, JS heap +${mb(byobFloor.peakGrowth.jsHeap)}`,
    );

    // The Blob-parts path (Firefox, Safari), in a fresh browser.
    context = await launch(join(outDir, 'profile-parts'));
    let parts: Pass;
    try {
      const page = await backupPage(context, s, NO_PICKER);
      const download = page.waitForEvent('download', { timeout: 20 * 60_000 });
      parts = await measure(page, () => consoleExport(page));
      const path = await (await download).path();
      if ((await sha256OfFile(path)) !== sha256)
        throw new Error('the Blob download is not the artifact byte for byte');
      await (await download).delete();
    } finally {
      await context.close();
    }
    log(
      `Blob parts: ${parts.ms.toFixed(0)} ms; renderer +${mb(parts.peakGrowth.renderer)}, ` +
        `browser process +${mb(parts.peakGrowth.browser)}, JS heap +${mb(parts.peakGrowth.jsHeap)}`,
    );

    const growth = picked.peakGrowth.renderer;
    return {
      row: 27,
      name: `console export of ${(bytes / MB).toFixed(0)} MiB to a picked file, Chromium tab memory`,
      dialect,
      figure: growth / MB,
      unit: 'MB peak renderer RSS growth',
      detail:
        `JS heap +${mb(picked.peakGrowth.jsHeap)}, browser process +${mb(picked.peakGrowth.browser)}; ` +
        `${(((bytes / MB) * 1000) / picked.ms).toFixed(0)} MB/s; static stream in the same tab: ` +
        `renderer +${mb(floor.peakGrowth.renderer)} (BYOB reader +${mb(byobFloor.peakGrowth.renderer)}); ` +
        `no picker (Blob parts): renderer +${mb(parts.peakGrowth.renderer)}, browser process ` +
        `+${mb(parts.peakGrowth.browser)}, JS heap +${mb(parts.peakGrowth.jsHeap)}`,
      baselineName: `the same tab idle on the page just before (renderer RSS ${mb(picked.idle.renderer)})`,
      baseline: null,
      // The growth as a share of the bytes exported: the 100 MB of 1 GB.
      ratio: growth / bytes,
      target: { kind: 'max', value: Number((BOUND_BYTES / (1024 * MB)).toFixed(3)) },
    };
  } finally {
    await s.dispose();
    rmSync(outDir, { recursive: true, force: true });
  }
}
