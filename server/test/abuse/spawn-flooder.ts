import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FloodOutcome, FloodPlan } from './preview-flooder.js';

const SCRIPT = fileURLToPath(new URL('./preview-flooder.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs the flood in its own process (the attacker's CPU is not the server's), resolving once its
 * clients are ready with the promise of its outcome.
 */
export async function startFlooder(plan: FloodPlan): Promise<{ done: Promise<FloodOutcome> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    cwd: SERVER_DIR,
    env: { ...process.env, STORE_FLOOD: JSON.stringify(plan) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    // Starting TypeScript through tsx takes seconds on a loaded box.
    const timer = setTimeout(
      () => reject(new Error(`flooder not ready in 30 s: ${stderr}`)),
      30_000,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('started')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`flooder exited (${code}) before starting: ${stderr}`));
    });
  });
  return {
    done: exited.then((code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0) throw new Error(`flooder exited ${code}: ${stderr}`);
      return JSON.parse(last) as FloodOutcome;
    }),
  };
}
