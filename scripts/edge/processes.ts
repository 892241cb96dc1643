import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';

/** A child process whose output goes to a log file, with a graceful stop. */
export interface Managed {
  name: string;
  child: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function startManaged(
  name: string,
  argv: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string },
): Managed {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own: a terminal's Ctrl-C reaches only the script that started it,
    // which stops it once (a second signal tells a replica to skip its graceful shutdown).
    detached: true,
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  let gone = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      gone = true;
      resolve();
    }),
  );
  return {
    name,
    child,
    exited,
    alive: () => !gone,
    async stop(graceMs = 10_000) {
      if (gone) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `check` until it resolves true; rejects after `timeoutMs` or when `died` settles first. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  died?: Managed,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (died && !died.alive()) throw new Error(`${died.name} exited while waiting for ${what}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
