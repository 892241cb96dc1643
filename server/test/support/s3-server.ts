import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureRclone } from '../../../scripts/edge/rclone-binary.js';
import { watchedArgv } from '../../../scripts/edge/watchdog.js';

/**
 * A real S3 server for tests: `rclone serve s3` (SigV4-checked, multipart uploads) on a free
 * 127.0.0.1 port over a temp directory, with generated credentials. It stands in for AWS S3 or
 * MinIO; the product never depends on rclone.
 */
export interface TestS3Server {
  /** `http://127.0.0.1:<port>`: STORE_S3_ENDPOINT. The port survives `restart()`. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The bucket made at start (a directory under `root`). */
  bucket: string;
  /** The directory served: each directory in it is a bucket, each file below an object. */
  root: string;
  /** The settings a server process needs to reach this S3 server (path-style, as for MinIO). */
  env(prefix?: string): Record<string, string>;
  /** Makes another (empty) bucket. */
  createBucket(name: string): void;
  running(): boolean;
  /** Stops the server (SIGTERM) and waits until it is gone; objects stay on disk. */
  stop(): Promise<void>;
  /** Starts it again on the same port, over the same directory, with the same credentials. */
  restart(): Promise<void>;
  /** Stops it and removes the directory. */
  close(): Promise<void>;
}

export interface TestS3ServerOptions {
  bucket?: string;
  /** Extra `rclone serve s3` flags, e.g. `['--multipart-expiry', '0']`. */
  extraArgs?: string[];
}

export async function startTestS3Server(options: TestS3ServerOptions = {}): Promise<TestS3Server> {
  const rclone = ensureRclone();
  const root = mkdtempSync(join(tmpdir(), 'store-s3-'));
  const bucket = options.bucket ?? 'store-artifacts';
  mkdirSync(join(root, bucket));
  const accessKeyId = `AKTEST${randomBytes(7).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(30).toString('base64url');
  let child: ChildProcess | undefined;
  let port = 0;

  async function launch(): Promise<void> {
    const args = [
      'serve',
      's3',
      root,
      '--addr',
      `127.0.0.1:${port}`,
      '--auth-key',
      `${accessKeyId},${secretAccessKey}`,
      // No rclone.conf: a plain path is served as the local file system.
      '--config',
      '/dev/null',
      ...(options.extraArgs ?? []),
    ];
    // The test process may die without calling close() (a killed vitest worker): the watchdog
    // ends rclone once this process's pipe to it closes.
    const [shell, ...shellArgs] = watchedArgv('rclone', [rclone, ...args]);
    const started = spawn(shell!, shellArgs, {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child = started;
    let printed = '';
    started.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`rclone did not start in 15 s:\n${printed}`)),
        15_000,
      );
      const look = () => {
        const match = /Starting s3 server on \[http:\/\/127\.0\.0\.1:(\d+)\//.exec(printed);
        if (!match) return;
        clearTimeout(timer);
        started.stderr?.off('data', look);
        resolve(Number(match[1]));
      };
      started.stderr?.on('data', look);
      started.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`rclone exited (${code}) before listening:\n${printed}`));
      });
    });
  }

  async function stop(): Promise<void> {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    running.stdin?.destroy();
  }

  await launch();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId,
    secretAccessKey,
    bucket,
    root,
    env: (prefix = '') => ({
      STORE_ARTIFACT_URL: `s3://${bucket}${prefix === '' ? '' : `/${prefix}`}`,
      STORE_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      STORE_S3_REGION: 'us-east-1',
      STORE_S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: accessKeyId,
      AWS_SECRET_ACCESS_KEY: secretAccessKey,
    }),
    createBucket: (name) => mkdirSync(join(root, name)),
    running: () => child !== undefined && child.exitCode === null && child.signalCode === null,
    stop,
    restart: async () => {
      await stop();
      await launch();
    },
    close: async () => {
      await stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
