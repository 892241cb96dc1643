import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestStorageLocation } from '../support/test-storage.js';

const CHILD = fileURLToPath(new URL('./server-child.ts', import.meta.url));
const SERVER_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** A real server process started on a storage location. */
export interface ServerProcess {
  child: ChildProcess;
  httpUrl: string;
  grpcUrl: string;
  bootstrapToken: string;
  /** Everything the process wrote to stderr so far (its logs at STORE_LOG_LEVEL). */
  stderr(): string;
  /** True while the process is alive. */
  alive(): boolean;
  /** SIGKILL (no cleanup runs, like a crash or the OOM killer) and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (graceful stop) and wait for the exit. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  env?: Record<string, string>;
  /**
   * Wraps the node command line, e.g. to run it inside `unshare -m sh -c '…; exec "$@"'`: gets
   * the command and its arguments, returns the ones to spawn.
   */
  wrap?: (command: string, args: string[]) => [string, string[]];
}

/** Starts server-child.ts on `location` (ports 0) and resolves once it listens. */
export async function spawnServer(
  location: TestStorageLocation,
  options: SpawnOptions = {},
): Promise<ServerProcess> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    STORE_DATA_DIR: location.dataDir,
    DATABASE_URL: location.databaseUrl ?? '',
    STORE_PG_SCHEMA: location.postgresSchema ?? '',
    STORE_HTTP_PORT: '0',
    STORE_GRPC_PORT: '0',
    STORE_HOST: '127.0.0.1',
    STORE_LOG_LEVEL: 'error',
    STORE_SHUTDOWN_GRACE_MS: '1000',
    ...options.env,
  };
  const base: [string, string[]] = [process.execPath, ['--import', 'tsx', CHILD]];
  const [command, args] = options.wrap ? options.wrap(...base) : base;
  const child = spawn(command, args, { cwd: SERVER_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ httpUrl: string; grpcUrl: string; bootstrapToken: string }>(
    (resolve, reject) => {
      // Starting TypeScript through tsx takes seconds on a loaded box.
      const timer = setTimeout(
        () => reject(new Error(`server not ready in 30 s: ${stderr}`)),
        30_000,
      );
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = stdout.split('\n').find((l) => l.startsWith('{"ready":true'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line) as { httpUrl: string; grpcUrl: string; bootstrapToken: string });
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`server exited (${code ?? signal}) before it was ready: ${stderr}`));
      });
    },
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const end = async (signal: NodeJS.Signals) => {
    if (!alive()) return;
    child.kill(signal);
    await exited;
  };
  return {
    child,
    ...ready,
    stderr: () => stderr,
    alive,
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}
