// Probe for row 27: what reading a large response costs a Chromium tab's renderer, by the way the
// page reads it (default reader, BYOB reader into one reused buffer, either in a dedicated
// worker). A local server streams N MiB of the same random MiB; each mode runs in the same tab,
// alternating, with the renderer's RSS (and RssAnon, Private_Dirty) sampled every 100 ms.
// `npx tsx bench/probe-fetch-memory.ts --mib=1024 --rounds=2`
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values } = parseArgs({
  options: { mib: { type: 'string', default: '1024' }, rounds: { type: 'string', default: '2' } },
});
const MIB = 1024 * 1024;
const total = Number(values.mib) * MIB;
const block = randomBytes(MIB);

const PAGE = `<!doctype html><title>probe</title><script>
const WORKER = \`
onmessage = async ({ data }) => postMessage(await (\${read.toString()})(data.mode, data.url));
\`;
async function read(mode, url) {
  const response = await fetch(url, { cache: 'no-store' });
  let total = 0;
  if (mode.endsWith('byob')) {
    const reader = response.body.getReader({ mode: 'byob' });
    let buffer = new ArrayBuffer(1024 * 1024);
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(buffer));
      if (done) break;
      total += value.byteLength;
      buffer = value.buffer;
    }
  } else {
    const reader = response.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read())
      total += next.value.byteLength;
  }
  return total;
}
window.probe = (mode) => {
  const url = location.origin + '/data';
  if (!mode.startsWith('worker')) return read(mode, url);
  const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: 'text/javascript' })));
  return new Promise((resolve) => {
    worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
    worker.onerror = (e) => resolve('worker error ' + e.message);
    worker.postMessage({ mode, url });
  });
};
</script>`;

const server = createServer((req, res) => {
  if (req.url !== '/data') {
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': total });
  let sent = 0;
  const more = () => {
    while (sent < total) {
      sent += MIB;
      if (!res.write(block)) return void res.once('drain', more);
    }
    res.end();
  };
  more();
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as { port: number }).port;

function renderers(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('--type=renderer'))
        pids.push(Number(name));
    } catch {
      // gone
    }
  }
  return pids;
}

interface Mem {
  rss: number;
  anon: number;
  privateDirty: number;
}
function mem(pids: number[]): Mem {
  const m = { rss: 0, anon: 0, privateDirty: 0 };
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      m.rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      m.anon += Number(/RssAnon:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      m.privateDirty += Number(/Private_Dirty:\s+(\d+)/.exec(rollup)?.[1] ?? 0) * 1024;
    } catch {
      // gone
    }
  }
  return m;
}

const context = await chromium.launchPersistentContext('', {
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const page = await context.newPage();
await page.goto(`http://127.0.0.1:${port}/`);
const cdp = await context.newCDPSession(page);
const mb = (n: number) => (n / MIB).toFixed(1);
const modes = ['main-default', 'main-byob', 'worker-default', 'worker-byob'];
console.log(`load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
for (let round = 0; round < Number(values.rounds); round++) {
  for (const mode of modes) {
    await cdp.send('HeapProfiler.collectGarbage');
    await page.waitForTimeout(1500);
    const pids = renderers();
    const idle = mem(pids);
    const peak = { ...idle };
    let on = true;
    const sampler = (async () => {
      while (on) {
        const now = mem(pids);
        peak.rss = Math.max(peak.rss, now.rss);
        peak.anon = Math.max(peak.anon, now.anon);
        peak.privateDirty = Math.max(peak.privateDirty, now.privateDirty);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const begun = performance.now();
    let read: number | string;
    try {
      read = await page.evaluate(
        (m) => (window as never as { probe(m: string): Promise<number> }).probe(m),
        mode,
      );
    } catch (error) {
      read = String(error).slice(0, 120);
    }
    const ms = performance.now() - begun;
    on = false;
    await sampler;
    console.log(
      `${round} ${mode.padEnd(15)} read=${read} ${(ms / 1000).toFixed(1)}s ` +
        `rss +${mb(peak.rss - idle.rss)} anon +${mb(peak.anon - idle.anon)} ` +
        `privDirty +${mb(peak.privateDirty - idle.privateDirty)} (idle rss ${mb(idle.rss)})`,
    );
  }
}
console.log(`load ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
await context.close();
server.close();
