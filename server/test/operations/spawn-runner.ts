import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestStorageLocation } from '../support/test-storage.js';
import type { ChildMode } from './child-kinds.js';

const CHILD_SCRIPT = fileURLToPath(new URL('./runner-child.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** A runner in its own process, resolved once it has started polling. */
export async function spawnRunner(
  location: TestStorageLocation,
  mode: ChildMode,
  leaseMs: number,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD_SCRIPT], {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      STORE_TEST_LOCATION: JSON.stringify(location),
      STORE_TEST_MODE: mode,
      STORE_TEST_LEASE_MS: String(leaseMs),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    // Starting TypeScript through tsx takes seconds on a loaded box.
    const timer = setTimeout(() => reject(new Error(`child not ready in 30 s: ${stderr}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code}) before ready: ${stderr}`));
    });
  });
  return child;
}

/** Kills a child (SIGKILL: no cleanup runs, like a crashed server) and waits for it to go. */
export async function killRunner(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}
