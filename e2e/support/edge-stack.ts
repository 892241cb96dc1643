import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startEdge, type RunningEdge } from '../../scripts/edge/topology';
import { E2E_TENANT, newAdminToken, repoRoot, serverSettings, type RunningStack } from './stack';

/** The local PostgreSQL the tests use (trust auth, database `test`). */
export const EDGE_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface EdgeStack extends RunningStack {
  edge: RunningEdge;
}

/**
 * The production topology (`npm run edge`): real Envoy with proxy/envoy.yaml in front of two
 * replicas (from source, through tsx) on a fresh PostgreSQL schema and a local S3 server
 * (`rclone serve s3`): no shared folder, every artifact an object. They serve the same built
 * console. `artifactDir` is where the S3 server keeps the objects' bytes, in the layout of a
 * directory store, so a spec can still flip a byte of a stored artifact. `listenPort` is chosen by the caller so the OIDC
 * provider can list the edge's callback URL before it starts.
 */
export async function startEdgeStack(options: {
  workDir: string;
  webDir: string;
  listenPort?: number;
  issuer: { issuer: string; audience: string };
  replicas?: number;
}): Promise<EdgeStack> {
  const pgSchema = `e2e_edge_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const adminToken = newAdminToken();
  mkdirSync(options.workDir, { recursive: true });
  const edge = await startEdge({
    serverCommand: [process.execPath, '--import', 'tsx', join(repoRoot, 'server/src/main.ts')],
    workDir: options.workDir,
    databaseUrl: EDGE_DATABASE_URL,
    pgSchema,
    bootstrapToken: adminToken,
    replicas: options.replicas ?? 2,
    ...(options.listenPort !== undefined && { listenPort: options.listenPort }),
    env: serverSettings(options.webDir, options.issuer),
  });
  return {
    edge,
    info: {
      baseUrl: edge.url,
      adminToken,
      databaseUrl: EDGE_DATABASE_URL,
      pgSchema,
      artifactDir: edge.artifactDir,
      oidcTenant: E2E_TENANT,
    },
    async stop() {
      await edge.stop();
      const client = new pg.Client({ connectionString: EDGE_DATABASE_URL });
      await client.connect();
      try {
        await client.query(`drop schema if exists ${pgSchema} cascade`);
      } finally {
        await client.end();
      }
    },
  };
}
