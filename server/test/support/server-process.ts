import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** The shipped server (src/main.ts) in its own process. */
export interface ServerProcess {
  child: ChildProcess;
  grpcUrl: string;
  httpUrl: string;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in what the process prints (10 s at most). */
  waitForOutput(pattern: RegExp): Promise<RegExpExecArray>;
  /** SIGTERM (graceful stop), SIGKILL after the grace period; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts `node src/main.ts` with exactly the given STORE_* / DATABASE_URL settings (nothing from
 * this process's environment leaks into its configuration) and resolves once it has printed the
 * URLs it listens on.
 */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const urls = await new Promise<{ httpUrl: string; grpcUrl: string }>((resolve, reject) => {
    // Starting TypeScript through tsx takes seconds on a loaded box.
    const timer = setTimeout(() => reject(new Error(`no URLs in 30 s:\n${printed}`)), 30_000);
    const look = () => {
      const http = /Store admin console: (http:\/\/\S+)/.exec(printed)?.[1];
      const grpc = /Native gRPC \(h2c\): +(http:\/\/\S+)/.exec(printed)?.[1];
      if (http && grpc) {
        clearTimeout(timer);
        child.stdout?.off('data', look);
        resolve({ httpUrl: http.replace('localhost', '127.0.0.1'), grpcUrl: grpc });
      }
    };
    child.stdout?.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening:\n${printed}`));
    });
  });
  return {
    child,
    ...urls,
    output: () => printed,
    async waitForOutput(pattern) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const match = pattern.exec(printed);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no ${String(pattern)} in:\n${printed}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
