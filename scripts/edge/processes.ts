import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { watchedArgv } from './watchdog.js';

/** A child process whose output goes to a log file, with a graceful stop. */
export interface Managed {
  name: string;
  /** Where its stdout and stderr go. */
  logFile: string;
  child: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * How a child learns that its launcher is gone, however the launcher ended (SIGKILL included):
 * `ipc` for the server (it stops gracefully once its IPC channel closes, as under `npm start`),
 * `stdin` for a program that is not Node (Envoy, rclone), run under the shell watchdog.
 */
export type LauncherWatch = 'ipc' | 'stdin';

export function startManaged(
  name: string,
  argv: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; logFile: string; watch: LauncherWatch },
): Managed {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const command = options.watch === 'stdin' ? watchedArgv(name, argv) : argv;
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: options.env,
    stdio: options.watch === 'ipc' ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'],
    // A process group of its own: a terminal's Ctrl-C reaches only the script that started it,
    // which stops it once (a second signal tells a replica to skip its graceful shutdown). The
    // launcher watch above is what ends it when the script itself is killed.
    detached: true,
  });
  // Neither the IPC channel nor the watchdog's pipe keeps the launcher alive by itself.
  child.channel?.unref();
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
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
    logFile: options.logFile,
    child,
    exited,
    alive: () => !gone,
    async stop(graceMs = 10_000) {
      if (gone) return;
      child.kill('SIGTERM');
      // The whole group: under the watchdog, the program as well as its shell.
      const timer = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      child.stdin?.destroy();
    },
  };
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // The group is gone already.
  }
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
    if (died && !died.alive())
      throw new Error(`${died.name} exited while waiting for ${what}${await logTail(died)}`);
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** The last lines a process wrote, so an early exit says why (a port taken, a bad config). */
async function logTail(managed: Managed, lines = 15): Promise<string> {
  // Its exit may come before the piped output reaches the file.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const text = await readFile(managed.logFile, 'utf8').catch(() => '');
  const tail = text.trimEnd().split('\n').slice(-lines).join('\n');
  return tail
    ? `; the last lines of ${managed.logFile}:\n${tail}`
    : ` (${managed.logFile} is empty)`;
}
