import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestIssuer } from '../server/test/support/oidc-issuer';
import { startEdgeStack } from './support/edge-stack';
import { freePort } from './support/free-port';
import {
  buildConsole,
  E2E_OIDC_SECOND_TENANT,
  E2E_TENANT,
  repoRoot,
  startDirectStack,
  type RunningStack,
  type StackInfo,
} from './support/stack';

/** The projects this run selected (`--project x`, repeatable); none given means all. */
function selectedProjects(): Set<string> | undefined {
  const names = new Set<string>();
  const argv = process.argv;
  argv.forEach((arg, i) => {
    if (arg === '--project' && argv[i + 1]) names.add(argv[i + 1]!);
    else if (arg.startsWith('--project=')) names.add(arg.slice('--project='.length));
  });
  return names.size > 0 ? names : undefined;
}

/** Hands a stack to the workers: `E2E_<NAME>` for the direct one, `E2E_EDGE_<NAME>` for Envoy. */
function publish(prefix: 'E2E_' | 'E2E_EDGE_', info: StackInfo): void {
  const set = (name: string, value: string | undefined) => {
    if (value !== undefined) process.env[`${prefix}${name}`] = value;
  };
  set('BASE_URL', info.baseUrl);
  set('ADMIN_TOKEN', info.adminToken);
  set('DATA_DIR', info.dataDir);
  set('DATABASE_URL', info.databaseUrl);
  set('PG_SCHEMA', info.pgSchema);
  set('ARTIFACT_DIR', info.artifactDir);
  set('OIDC_TENANT', info.oidcTenant);
}

/**
 * Starts the stacks the selected projects need, unless E2E_BASE_URL points at one already running
 * (then E2E_ADMIN_TOKEN and E2E_DATA_DIR or DATABASE_URL must name its admin token and storage,
 * and only the `direct` project applies). Project `direct`: one server that serves gRPC-Web
 * itself, on SQLite. Project `edge`: real Envoy with proxy/envoy.yaml in front of two replicas on
 * PostgreSQL. Both serve one Vite build and trust one real OpenID provider.
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.E2E_BASE_URL) {
    if (!process.env.E2E_ADMIN_TOKEN) throw new Error('E2E_BASE_URL needs E2E_ADMIN_TOKEN');
    if (!process.env.E2E_DATA_DIR && !process.env.DATABASE_URL)
      throw new Error('E2E_BASE_URL needs E2E_DATA_DIR or DATABASE_URL (for the token CLI)');
    process.env.E2E_OIDC_TENANT ??= 'default';
    return undefined;
  }
  const selected = selectedProjects();
  const wants = (project: string) => selected === undefined || selected.has(project);
  const logDir = join(repoRoot, 'test-results');
  mkdirSync(logDir, { recursive: true });
  const workDir = mkdtempSync(join(tmpdir(), 'store-e2e-'));
  const webDir = join(workDir, 'web');
  buildConsole(webDir);
  process.env.E2E_WEB_DIR = webDir;

  const [directPort, edgePort] = [await freePort(), await freePort()];
  const issuer = await startTestIssuer({
    tenants: { [E2E_TENANT]: ['admin'], [E2E_OIDC_SECOND_TENANT]: ['viewer'] },
    redirectUris: [
      `http://127.0.0.1:${directPort}/auth/callback`,
      `http://127.0.0.1:${edgePort}/auth/callback`,
    ],
    accessTokenTtlSeconds: 600,
  });
  process.env.E2E_OIDC_ISSUER = issuer.issuer;
  process.env.E2E_OIDC_AUDIENCE = issuer.audience;
  const stacks: RunningStack[] = [];
  const teardown = async () => {
    for (const stack of stacks.reverse()) await stack.stop();
    await issuer.close();
    // Envoy's access log and the replicas' logs outlive the run, beside server.log.
    const edgeLogs = process.env.E2E_EDGE_LOG_DIR;
    if (edgeLogs && existsSync(edgeLogs))
      cpSync(edgeLogs, join(logDir, 'edge'), { recursive: true });
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    if (wants('direct')) {
      const direct = await startDirectStack({
        workDir: join(workDir, 'direct'),
        webDir,
        httpPort: directPort,
        issuer,
        logDir,
      });
      stacks.push(direct);
      publish('E2E_', direct.info);
    }
    if (wants('edge')) {
      const edge = await startEdgeStack({
        workDir: join(workDir, 'edge'),
        webDir,
        listenPort: edgePort,
        issuer,
      });
      stacks.push(edge);
      publish('E2E_EDGE_', edge.info);
      process.env.E2E_EDGE_ADMIN_URL = edge.edge.adminUrl;
      process.env.E2E_EDGE_LOG_DIR = edge.edge.logDir;
    }
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}
