// The server dies with its launcher. `npm start` (scripts/start.mjs) runs the server in a process
// group of its own, so killing the launcher hard, or its whole group (a terminal or CI job killed
// with SIGKILL), sent the server nothing: it kept running and holding both ports, and the next
// `npm start` could not bind. The real start script runs here on a bundle of today's server.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkDependencies, REPO_ROOT } from '../support/repo-copy.js';
import { freePort } from '../support/shutdown-harness.js';

const URL_LINE = /Store admin console: (http:\/\/\S+)/;

/**
 * A folder laid out like the repository for scripts/start.mjs: the real start and build scripts
 * and server flags, the server bundled as `npm start` bundles it, a built console stub, this
 * checkout's packages. With no sources beside them, nothing counts as stale and nothing is
 * rebuilt.
 */
async function launcherFolder(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'store-launcher-'));
  mkdirSync(join(dir, 'scripts'));
  for (const script of ['start.mjs', 'build-if-stale.mjs']) {
    copyFileSync(join(REPO_ROOT, 'scripts', script), join(dir, 'scripts', script));
  }
  mkdirSync(join(dir, 'web/dist'), { recursive: true });
  writeFileSync(join(dir, 'web/dist/index.html'), '<div id="root"></div>');
  for (const workspace of ['proto', 'server']) mkdirSync(join(dir, workspace), { recursive: true });
  // The flags start.mjs runs the server with.
  copyFileSync(join(REPO_ROOT, 'server/node-flags.mjs'), join(dir, 'server/node-flags.mjs'));
  linkDependencies(dir);
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'server/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: {
      main: join(REPO_ROOT, 'server/src/main.ts'),
      // The validation pool's threads load it from beside main.js, as server/scripts/build.mjs lays it.
      'validation-worker': join(
        REPO_ROOT,
        'server/src/engines/schema/validation/validation-worker.ts',
      ),
    },
    outdir: join(dir, 'server/dist'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // As server/scripts/build.mjs: npm dependencies stay external, the contract is bundled in.
    external: [
      ...Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@store/')),
      '@bufbuild/protobuf/*',
      '@connectrpc/*',
    ],
    logLevel: 'warning',
  });
  return dir;
}

interface Launcher {
  child: ChildProcess;
  output(): string;
  /** Resolves once every process holding the output pipes has ended (the server included). */
  closed: Promise<void>;
  ended(): boolean;
}

/** `node scripts/start.mjs` in a process group of its own, as a terminal or CI job runs it. */
function startLauncher(dir: string, env: Record<string, string>): Launcher {
  const child = spawn(process.execPath, [join(dir, 'scripts/start.mjs')], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let printed = '';
  child.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  let ended = false;
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  void closed.then(() => (ended = true));
  return { child, output: () => printed, closed, ended: () => ended };
}

/** The printed URL of a start, once it listens; fails at once if the start ended instead. */
async function listening(launcher: Launcher): Promise<string> {
  const [, url] = await waitFor(
    'the start to listen',
    () => {
      if (launcher.ended()) throw new Error(`the start ended:\n${launcher.output()}`);
      return URL_LINE.exec(launcher.output()) ?? undefined;
    },
    30_000,
  );
  return url!.replace('localhost', '127.0.0.1');
}

async function waitFor<T>(what: string, look: () => T | undefined, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = look();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Running and not a zombie (an orphan's reaper may be slow to collect it). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('the server started by scripts/start.mjs ends with it', () => {
  let dir: string;
  const launchers: Launcher[] = [];
  const serverPids: number[] = [];
  beforeAll(async () => {
    dir = await launcherFolder();
  });
  afterAll(async () => {
    // Whatever a failed test left running: a server that outlived its launcher above all.
    for (const launcher of launchers) {
      if (launcher.ended() || launcher.child.pid === undefined) continue;
      try {
        process.kill(-launcher.child.pid, 'SIGKILL');
      } catch {
        // The launcher's group is gone already.
      }
    }
    for (const pid of serverPids) if (running(pid)) process.kill(pid, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['the launcher alone', (pid: number) => process.kill(pid, 'SIGKILL')],
    ['its whole process group', (pid: number) => process.kill(-pid, 'SIGKILL')],
  ])(
    'SIGKILL of %s: the server stops within seconds and a second start binds the same ports',
    async (_what, killHard) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'store-launcher-data-'));
      const env = {
        STORE_DATA_DIR: dataDir,
        STORE_HTTP_PORT: String(await freePort()),
        STORE_GRPC_PORT: String(await freePort()),
        // Its own metrics port too (the default, 9464, may be held by another test's server):
        // the second start must bind all three again.
        STORE_METRICS_PORT: String(await freePort()),
        STORE_SHUTDOWN_GRACE_MS: '1000',
      };
      try {
        const first = startLauncher(dir, env);
        launchers.push(first);
        await listening(first);
        const launcherPid = first.child.pid!;
        const serverPid = Number(
          readFileSync(`/proc/${launcherPid}/task/${launcherPid}/children`, 'utf8').trim(),
        );
        serverPids.push(serverPid);
        expect(running(serverPid)).toBe(true);

        killHard(launcherPid);
        const stoppedIn = Date.now();
        await waitFor('the server to end', () => (running(serverPid) ? undefined : true), 10_000);
        expect(Date.now() - stoppedIn).toBeLessThan(8_000);
        await first.closed;
        expect(first.output()).toMatch(/"launcher":"gone","msg":"shutting down"/);
        expect(first.output()).toMatch(/"msg":"stopped"/);

        const second = startLauncher(dir, env);
        launchers.push(second);
        const health = await fetch(`${await listening(second)}/healthz`);
        expect(health.status).toBe(200);
        process.kill(-second.child.pid!, 'SIGINT');
        await second.closed;
        expect(second.output()).not.toContain('EADDRINUSE');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
