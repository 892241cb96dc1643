import { spawn, type ChildProcess } from 'node:child_process';

/** `npm start` running in its own process group, the way a terminal runs it. */
export interface NpmStart {
  child: ChildProcess;
  /** Everything npm, the start script and the server printed so far (stdout and stderr). */
  output(): string;
  /** The first match of `pattern` in the output; rejects if the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** npm's exit code (or signal name), once npm and everything it started have ended. */
  exited(): Promise<number | string>;
  /** Ctrl-C: SIGINT to the whole process group, as a terminal sends it. */
  interrupt(): Promise<number | string>;
}

/**
 * Runs `npm start -- <args>` (or `npm run <script> -- <args>`) in `dir` with only `env` (plus PATH and HOME) as its environment,
 * detached into a process group of its own so an interrupt reaches npm, the start script and the
 * server together, exactly as Ctrl-C in a terminal does. With `terminal`, it runs on a pseudo
 * terminal (util-linux `script`): stdout is a TTY, and the interrupt is a typed Ctrl-C (^C),
 * which the terminal turns into SIGINT for its foreground process group.
 */
export function npmStart(
  dir: string,
  args: string[],
  env: Record<string, string>,
  options: { terminal?: boolean; script?: string } = {},
): NpmStart {
  const run = options.script ? ['run', options.script] : ['start'];
  const command = ['npm', ...run, ...(args.length > 0 ? ['--', ...args] : [])];
  const child = options.terminal
    ? spawn('script', ['-qfec', command.join(' '), '/dev/null'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      })
    : spawn(command[0]!, command.slice(1), {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  // 'close', not 'exit': it fires once every process holding the output pipes has ended, the
  // server included (it outlives npm by its graceful shutdown).
  const exit = new Promise<number | string>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  let gone = false;
  void exit.then(() => (gone = true));
  return {
    child,
    output: () => printed,
    async waitForOutput(pattern, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = pattern.exec(printed);
        if (match) return match;
        if (gone)
          throw new Error(`npm start exited without printing ${String(pattern)}:\n${printed}`);
        if (Date.now() > deadline) throw new Error(`no ${String(pattern)} in:\n${printed}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    exited: () => exit,
    async interrupt() {
      if (gone || child.pid === undefined) {
        // already ended
      } else if (options.terminal) child.stdin?.write('\x03');
      else process.kill(-child.pid, 'SIGINT');
      const timer = setTimeout(() => {
        if (!gone && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      }, 20_000);
      const code = await exit;
      clearTimeout(timer);
      return code;
    },
  };
}
