// Issue 15: `npm start` as a user runs it, from a fresh copy of the repository: the real start
// script (scripts/start.mjs: build what is missing or stale, then the bundled server), stopped
// with Ctrl-C and started again on the same data directory. The second start used to die with
// ENOTDIR in the staleness check, and nothing ran `npm start` twice.
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { IdentityService, TreeDataService } from '@store/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmStart, type NpmStart } from '../support/npm-start.js';
import { copyRepository, type RepoCopy } from '../support/repo-copy.js';

const CONSOLE_BUILD = '› building the console (vite)';
const SERVER_BUILD = '› building the server (esbuild)';
const URL_LINE = /Store admin console: (http:\/\/\S+)/;

describe('npm start from a fresh copy of the repository', () => {
  let repo: RepoCopy;
  let dataDir: string;
  let token: string;
  const running: NpmStart[] = [];

  beforeAll(() => {
    repo = copyRepository('store-npm-start-');
    dataDir = mkdtempSync(join(tmpdir(), 'store-npm-start-data-'));
  });
  afterAll(async () => {
    for (const start of running) await start.interrupt();
    repo?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** `npm start` on the shared data directory and free ports; resolves once it listens. */
  async function start(
    terminal = false,
    dir = dataDir,
  ): Promise<{ run: NpmStart; baseUrl: string }> {
    const run = npmStart(
      repo.dir,
      [],
      { STORE_DATA_DIR: dir, STORE_HTTP_PORT: '0', STORE_GRPC_PORT: '0' },
      { terminal },
    );
    running.push(run);
    const [, url] = await run.waitForOutput(URL_LINE, 240_000);
    return { run, baseUrl: url!.replace('localhost', '127.0.0.1') };
  }

  async function stop(run: NpmStart): Promise<void> {
    // npm itself ends by the signal, as it does in a terminal; the server must stop gracefully.
    expect(String(await run.interrupt())).toMatch(/^(0|SIGINT|130)$/);
    running.splice(running.indexOf(run), 1);
  }

  /** The server's log lines when stdout is not a terminal: one JSON object per line. */
  function jsonLogLines(output: string): { msg: string; signal?: string }[] {
    const lines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    return lines.map((line) => JSON.parse(line) as { msg: string; signal?: string });
  }

  function clients(baseUrl: string) {
    const transport = createConnectTransport({ baseUrl, httpVersion: '1.1' });
    const headers = { authorization: `Bearer ${token}` };
    return {
      whoAmI: () => createClient(IdentityService, transport).whoAmI({}, { headers }),
      trees: createClient(TreeDataService, transport),
      headers,
    };
  }

  it('the first start builds both, prints a token that signs in, and stops on Ctrl-C', async () => {
    const { run, baseUrl } = await start();
    expect(run.output()).toContain(CONSOLE_BUILD);
    expect(run.output()).toContain(SERVER_BUILD);
    // Not a terminal: the token is in a file of mode 0600 the output names, never in the output.
    const [, file] = await run.waitForOutput(/using the token in the file:\n {2}(\S+)\n/);
    token = readFileSync(file!, 'utf8').trim();
    expect(token).toMatch(/^st_/);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(run.output()).not.toContain(token);
    const api = clients(baseUrl);
    expect((await api.whoAmI()).activeTenant).toBe('default');
    await api.trees.putEntry(
      { treeId: 'kept-across-starts', key: 'k1', valueJson: '{"n":1}' },
      { headers: api.headers },
    );
    const page = await fetch(baseUrl);
    expect(await page.text()).toContain('<div id="root">');
    await stop(run);
    const logged = jsonLogLines(run.output());
    expect(logged.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['store server listening', 'shutting down', 'stopped']),
    );
    expect(logged.find((line) => line.msg === 'shutting down')?.signal).toBe('SIGINT');
  });

  it('the second start on the same data directory rebuilds nothing and keeps token and data', async () => {
    const { run, baseUrl } = await start();
    expect(run.output()).not.toContain('ENOTDIR');
    expect(run.output()).not.toContain(CONSOLE_BUILD);
    expect(run.output()).not.toContain(SERVER_BUILD);
    // No second first-admin token: the data directory already has one.
    expect(run.output()).not.toMatch(/This token is shown once/);
    const api = clients(baseUrl);
    expect((await api.whoAmI()).activeTenant).toBe('default');
    const got = await api.trees.getEntry(
      { treeId: 'kept-across-starts', key: 'k1' },
      { headers: api.headers },
    );
    expect(got.found).toBe(true);
    expect(JSON.parse(got.entry!.valueJson)).toEqual({ n: 1 });
    await stop(run);
    expect(jsonLogLines(run.output()).map((line) => line.msg)).toContain('stopped');
  });

  it('after a web source changes, the next start rebuilds the console (and only the console)', async () => {
    // An edit now: newer than the build (made a moment ago), not in the future.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = new Date();
    utimesSync(join(repo.dir, 'web/src/main.tsx'), now, now);
    const { run, baseUrl } = await start();
    expect(run.output()).toContain(CONSOLE_BUILD);
    expect(run.output()).not.toContain(SERVER_BUILD);
    expect((await clients(baseUrl).whoAmI()).activeTenant).toBe('default');
    await stop(run);
  });

  it('on a terminal the log is readable lines, not JSON, and a typed Ctrl-C stops it gracefully', async () => {
    const { run, baseUrl } = await start(true);
    expect((await clients(baseUrl).whoAmI()).activeTenant).toBe('default');
    await stop(run);
    const output = run.output();
    expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: store server listening \{"http":/m);
    expect(output).toMatch(/^\^C\[[\d:.]+\] INFO: shutting down \{"signal":"SIGINT"\}/m);
    expect(output).toMatch(/^\[[\d:.]+\] INFO: stopped\r?$/m);
    expect(output).not.toMatch(/^\{"level"/m);
  });

  it('on a terminal, a first start prints the token itself, and it signs in', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'store-npm-start-tty-'));
    try {
      const { run, baseUrl } = await start(true, fresh);
      const [, printed] = await run.waitForOutput(/using:\r?\n {2}(st_\S+)\r?\n/);
      const me = await createClient(
        IdentityService,
        createConnectTransport({ baseUrl, httpVersion: '1.1' }),
      ).whoAmI({}, { headers: { authorization: `Bearer ${printed}` } });
      expect(me.activeTenant).toBe('default');
      await stop(run);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('npm start -- --help lists the settings and exits 0', async () => {
    const run = npmStart(repo.dir, ['--help'], { STORE_DATA_DIR: dataDir });
    expect(await run.exited()).toBe(0);
    expect(run.output()).toContain('Usage: npm start -- [flags]');
    expect(run.output()).toContain('--http-port');
    expect(run.output()).not.toContain(CONSOLE_BUILD);
  });
});
