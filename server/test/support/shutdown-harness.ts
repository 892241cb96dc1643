// Shared by the shutdown tests: the shipped server (src/main.ts) in its own process on ports the
// test picks, so it can run with a stdout nobody reads; and such a stdout.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { constants, closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../scripts/edge/free-port.js';
import type { TestStorageLocation } from './test-storage.js';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

export { freePort };

/**
 * A pipe that is full and that nobody reads, yet still open for reading: what a server's stdout
 * becomes when the CI job or terminal that read `npm start`'s output stops reading without
 * closing. Every write to it would block; a non-blocking one fails with EAGAIN.
 */
export function fullUnreadPipe(): { writeFd: number; close(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'store-full-pipe-'));
  const fifo = join(dir, 'stdout');
  execFileSync('mkfifo', [fifo]);
  const readFd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeFd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  const chunk = Buffer.alloc(4096, 'x');
  for (;;) {
    try {
      writeSync(writeFd, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw error;
    }
  }
  return {
    writeFd,
    close() {
      closeSync(writeFd);
      closeSync(readFd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface MainProcess {
  child: ChildProcess;
  httpUrl: string;
  grpcUrl: string;
  /** What the process wrote to stderr (and to stdout, when the test reads it). */
  output(): string;
  /** Sends `signal` and resolves once the process has exited, with how long that took. */
  signalAndWait(
    signal: NodeJS.Signals,
    limitMs: number,
  ): Promise<{ code: number | null; afterMs: number }>;
}

/**
 * Starts `node src/main.ts` on `location` with fixed free ports and waits until /healthz answers
 * 200 (stdout may be unreadable, so the printed URLs are not waited for). `stdout` is a file
 * descriptor for the child's stdout, or 'pipe' to read it.
 */
export async function startMain(
  location: TestStorageLocation,
  env: Record<string, string>,
  stdout: number | 'pipe' = 'pipe',
): Promise<MainProcess> {
  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      STORE_DATA_DIR: location.dataDir,
      ...(location.databaseUrl && { DATABASE_URL: location.databaseUrl }),
      ...(location.postgresSchema && { STORE_PG_SCHEMA: location.postgresSchema }),
      STORE_HOST: '127.0.0.1',
      STORE_HTTP_PORT: String(httpPort),
      STORE_GRPC_PORT: String(grpcPort),
      ...env,
    },
    stdio: ['ignore', stdout, 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const httpUrl = `http://127.0.0.1:${httpPort}`;
  // Starting TypeScript through tsx takes seconds on a loaded box.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await fetch(`${httpUrl}/healthz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) break;
    if (child.exitCode !== null) throw new Error(`server exited before serving:\n${printed}`);
    if (Date.now() > deadline) throw new Error(`server not serving in 30 s:\n${printed}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    httpUrl,
    grpcUrl: `http://127.0.0.1:${grpcPort}`,
    output: () => printed,
    async signalAndWait(signal, limitMs) {
      const sent = Date.now();
      child.kill(signal);
      // A process that outlives the limit is killed, so a failing test does not leave it behind.
      const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
      const code = await exited;
      clearTimeout(timer);
      return { code, afterMs: Date.now() - sent };
    },
  };
}
