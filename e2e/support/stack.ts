import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestIssuer, type TestIssuer } from '../../server/test/support/oidc-issuer';
import { freePort } from './free-port';

export const repoRoot = new URL('../..', import.meta.url).pathname;

/** What the tests need to reach the stack; passed to workers through the environment. */
export interface StackInfo {
  baseUrl: string;
  adminToken: string;
  /** STORE_DATA_DIR of the server, so the token CLI can issue and revoke tokens. */
  dataDir: string;
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

/**
 * The real stack on loopback: the console built by Vite into a temp dir, the server from source
 * (tsx) on a fresh temp data directory (SQLite), and a real OpenID provider for the OIDC scheme.
 */
export async function startStack(logDir: string): Promise<RunningStack> {
  const workDir = mkdtempSync(join(tmpdir(), 'store-e2e-'));
  const webDir = join(workDir, 'web');
  const dataDir = join(workDir, 'data');
  const build = spawnSync(
    process.execPath,
    [
      join(repoRoot, 'node_modules/vite/bin/vite.js'),
      'build',
      'web',
      '--outDir',
      webDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (build.status !== 0) throw new Error('vite build of the console failed');

  const [httpPort, grpcPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  const issuer: TestIssuer = await startTestIssuer({
    tenants: { [E2E_TENANT]: ['admin'], [E2E_OIDC_SECOND_TENANT]: ['viewer'] },
    redirectUris: [`${baseUrl}/auth/callback`],
    accessTokenTtlSeconds: 600,
  });
  const adminToken = `st_e2e_${randomBytes(24).toString('hex')}`;
  const log = createWriteStream(join(logDir, 'server.log'));
  const server: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(repoRoot, 'server/src/main.ts')],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        STORE_DATA_DIR: dataDir,
        STORE_HTTP_PORT: String(httpPort),
        STORE_GRPC_PORT: String(grpcPort),
        STORE_STATIC_DIR: webDir,
        STORE_BOOTSTRAP_TOKEN: adminToken,
        STORE_BOOTSTRAP_TENANT: E2E_TENANT,
        STORE_AUTHORIZER: 'rbac',
        STORE_OIDC_ISSUER: issuer.issuer,
        STORE_OIDC_CLIENT_ID: 'store-console',
        STORE_OIDC_AUDIENCE: issuer.audience,
        STORE_HEALTH_MONITORING: 'true',
        STORE_LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) =>
      reject(new Error(`the server exited (${code}) during start-up; see ${logDir}/server.log`)),
    ),
  );
  await Promise.race([waitForHealthy(baseUrl), exited]);
  server.removeAllListeners('exit');

  return {
    info: { baseUrl, adminToken, dataDir, oidcTenant: E2E_TENANT },
    async stop() {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      await issuer.close();
      rmSync(workDir, { recursive: true, force: true });
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
