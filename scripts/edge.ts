// `npm run edge`: the production topology on this machine, without Docker. Envoy with
// proxy/envoy.yaml (only addresses and ports substituted) in front of two server replicas on the
// local PostgreSQL (a fresh schema) and a local S3 server (`rclone serve s3`, standing in for AWS
// S3 or MinIO): the replicas share no folder. Ctrl-C stops everything and drops the schema.
// `npm run edge -- --keep` keeps the schema and the folder for a later look. Killed hard, this
// script still takes its children with it: the replicas watch their IPC channel, Envoy and the
// S3 server a pipe from here (scripts/edge/watchdog.ts). Prometheus (Debian's `prometheus`, when
// installed) scrapes the replicas and Envoy with the shipped alert rules; `-- --no-prometheus`
// leaves it out. STORE_EDGE_REFLECTION=on routes server reflection through Envoy (default off).
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../server/node-flags.mjs';
import type { Managed } from './edge/processes.js';
import { reflectionSetting } from './edge/envoy-config.js';
import { findPrometheus, PROMETHEUS_INSTALL, startEdgePrometheus } from './edge/prometheus.js';
import { startEdge, type RunningEdge } from './edge/topology.js';

const ROOT = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    keep: { type: 'boolean', default: false },
    replicas: { type: 'string', default: '2' },
    'no-prometheus': { type: 'boolean', default: false },
  },
});

function must(title: string, args: string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`npm run edge: ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists ${schema} cascade`);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const reflection = reflectionSetting(process.env.STORE_EDGE_REFLECTION);
  must('building', ['scripts/build-if-stale.mjs']);
  must('PostgreSQL', ['scripts/ensure-postgres.mjs']);
  const databaseUrl =
    process.env.DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test';
  const schema = `edge_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const workDir = mkdtempSync(join(tmpdir(), 'store-edge-'));
  const token = process.env.STORE_BOOTSTRAP_TOKEN ?? `st_edge_${randomBytes(24).toString('hex')}`;
  console.log(`› starting ${values.replicas} replicas and Envoy (logs in ${workDir}/logs)`);

  let edge: RunningEdge | undefined;
  let prometheus: { prometheus: Managed; url: string } | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\n› stopping Prometheus, Envoy, the replicas and the S3 server');
    await prometheus?.prometheus.stop();
    await edge?.stop();
    if (!values.keep) {
      await dropSchema(databaseUrl, schema).catch((error: unknown) =>
        console.error(`could not drop schema ${schema}: ${String(error)}`),
      );
      rmSync(workDir, { recursive: true, force: true });
    } else console.log(`kept schema ${schema} and ${workDir}`);
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
    process.on(signal, () => void stop(0));

  try {
    edge = await startEdge({
      serverCommand: [process.execPath, ...SERVER_NODE_FLAGS, 'server/dist/main.js'],
      workDir,
      databaseUrl,
      pgSchema: schema,
      bootstrapToken: token,
      replicas: Number(values.replicas),
      env: { STORE_LOG_LEVEL: process.env.STORE_LOG_LEVEL ?? 'info' },
      reflection,
    });
    prometheus = await maybeStartPrometheus(edge, workDir);
  } catch (error) {
    console.error(`npm run edge: ${error instanceof Error ? error.message : String(error)}`);
    await stop(1);
    return;
  }
  console.log(`
Store admin console through Envoy: ${edge.url.replace('127.0.0.1', 'localhost')}
  Envoy ${edge.replicas.length > 1 ? '→ ' : ''}${edge.replicas.map((r) => `${r.name} (h2c :${r.grpcPort}, http :${r.httpPort})`).join(', ')}
  PostgreSQL ${databaseUrl.replace(/\/\/[^@]*@/, '//')} schema ${schema}; artifacts in S3
  ${edge.objectStorage.endpoint} s3://${edge.objectStorage.bucket}/${edge.objectStorage.prefix} (files in ${edge.objectStorage.root})
  Envoy admin (stats, clusters): ${edge.adminUrl}
  Server reflection through Envoy: ${reflection ? 'on' : 'off (STORE_EDGE_REFLECTION=on serves it)'}
  ${prometheus ? `Prometheus (targets, alerts): ${prometheus.url}` : 'Prometheus: not started'}

Sign in with the "API token" scheme, tenant "default", using:
  ${process.env.STORE_BOOTSTRAP_TOKEN ? '(the token in STORE_BOOTSTRAP_TOKEN)' : token}
Ctrl-C stops Envoy and both replicas${values.keep ? '' : ' and drops the schema'}.`);
  for (const managed of [
    ...(prometheus ? [prometheus.prometheus] : []),
    edge.envoy,
    edge.objectStorage.process,
    ...edge.replicas.map((r) => r.process),
  ]) {
    void managed.exited.then(() => {
      if (!stopping)
        console.error(`! ${managed.name} exited; see ${edge?.logDir}/${managed.name}.log`);
    });
  }
}

/** Prometheus on the replicas' metrics ports and Envoy's admin, unless skipped or not installed. */
async function maybeStartPrometheus(
  edge: RunningEdge,
  workDir: string,
): Promise<{ prometheus: Managed; url: string } | undefined> {
  if (values['no-prometheus']) return undefined;
  const binary = findPrometheus();
  if (!binary) {
    console.log(`› Prometheus is not installed (${PROMETHEUS_INSTALL}); running without it`);
    return undefined;
  }
  return startEdgePrometheus(binary, workDir, edge.logDir, {
    replicaMetricsPorts: edge.replicas.map((replica) => replica.metricsPort),
    envoyAdminPort: edge.adminPort,
  });
}

void main();
