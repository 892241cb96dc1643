import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/** What the tests need to reach a stack; passed to workers through the environment. */
export interface StackInfo {
  baseUrl: string;
  adminToken: string;
  /** STORE_DATA_DIR of the server (SQLite), so the token CLI can issue and revoke tokens. */
  dataDir?: string;
  /** PostgreSQL storage of the replicas (edge stack), for the token CLI and seeding. */
  databaseUrl?: string;
  pgSchema?: string;
  /** Where the backups' artifacts are (tests that corrupt one on purpose). */
  artifactDir: string;
  /** Tenants granted to the OIDC test user. */
  oidcTenant: string;
}

export interface RunningStack {
  info: StackInfo;
  stop(): Promise<void>;
}

/** Tenant of the bootstrap admin and of the OIDC user. */
export const E2E_TENANT = 'default';
/** A second tenant of the OIDC user (viewer), so the console's tenant choice and switcher run. */
export const E2E_OIDC_SECOND_TENANT = 'oidc-second';

/** The console built by Vite into `outDir` (shared by every stack of a run). */
export function buildConsole(outDir: string): void {
  const build = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      'web',
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('vite build of the console failed');
}

/** The settings every server of the e2e stacks gets (the OIDC issuer is the test provider). */
export function serverSettings(webDir: string, issuer: { issuer: string; audience: string }) {
  return {
    STORE_STATIC_DIR: webDir,
    STORE_BOOTSTRAP_TENANT: E2E_TENANT,
    STORE_AUTHORIZER: 'rbac',
    STORE_OIDC_ISSUER: issuer.issuer,
    STORE_OIDC_CLIENT_ID: 'store-console',
    STORE_OIDC_AUDIENCE: issuer.audience,
    STORE_HEALTH_MONITORING: 'true',
    STORE_LOG_LEVEL: 'info',
    // The notifications spec's webhook receiver listens on loopback, which the server refuses
    // as a target unless the operator allows private targets.
    STORE_NOTIFY_ALLOW_PRIVATE_TARGETS: 'true',
    // Two failed deliveries in a row pause a channel (default 10), so the notifications spec
    // reaches a paused channel with two real failed backups instead of ten.
    STORE_NOTIFY_PAUSE_AFTER: '2',
  };
}

export const newAdminToken = () => `st_e2e_${randomBytes(24).toString('hex')}`;

/**
 * The direct stack on loopback: the server from source (tsx) on a fresh SQLite data directory,
 * serving the built console, gRPC-Web and Connect itself.
 */
export async function startDirectStack(options: {
  workDir: string;
  webDir: string;
  httpPort: number;
  issuer: { issuer: string; audience: string };
  logDir: string;
  /** The bootstrap token again, to start a stopped stack anew on its data (server-gone.spec). */
  adminToken?: string;
}): Promise<RunningStack> {
  const dataDir = join(options.workDir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const grpcPort = await freePort();
  const baseUrl = `http://127.0.0.1:${options.httpPort}`;
  const adminToken = options.adminToken ?? newAdminToken();
  const log = createWriteStream(join(options.logDir, 'server.log'), { flags: 'a' });
  const server: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'server/src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        ...serverSettings(options.webDir, options.issuer),
        STORE_DATA_DIR: dataDir,
        STORE_HTTP_PORT: String(options.httpPort),
        STORE_GRPC_PORT: String(grpcPort),
        STORE_BOOTSTRAP_TOKEN: adminToken,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server.stdout?.pipe(log, { end: false });
  server.stderr?.pipe(log, { end: false });
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) =>
      reject(new Error(`the server exited (${code}) during start-up; see server.log`)),
    ),
  );
  await Promise.race([waitForHealthy(baseUrl), exited]);
  server.removeAllListeners('exit');

  return {
    info: {
      baseUrl,
      adminToken,
      dataDir,
      artifactDir: join(dataDir, 'artifacts'),
      oidcTenant: E2E_TENANT,
    },
    async stop() {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    },
  };
}

async function waitForHealthy(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the server at ${baseUrl} did not become healthy within 60 s`);
}
