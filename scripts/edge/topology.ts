import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureEnvoy } from './envoy-binary.js';
import { writeEdgeEnvoyConfig } from './envoy-config.js';
import { freePort } from './free-port.js';
import { startEdgeObjectStorage, type EdgeObjectStorage } from './object-storage.js';
import { startManaged, waitUntil, type Managed } from './processes.js';

const ROOT = new URL('../..', import.meta.url).pathname;

/**
 * The production topology on one machine: Envoy → N server replicas → PostgreSQL + an S3 server.
 * The replicas share no folder: each has a data directory of its own, every artifact is an object.
 */
export interface EdgeOptions {
  /** argv that starts one replica (the bundled server, or src/main.ts through tsx). */
  serverCommand: string[];
  /** A folder for per-replica data dirs, the S3 server's folder, the Envoy config and logs. */
  workDir: string;
  databaseUrl: string;
  pgSchema: string;
  bootstrapToken: string;
  replicas?: number;
  /** Envoy's listener port; a free one when absent. */
  listenPort?: number;
  /** More settings for every replica (STORE_STATIC_DIR, OIDC …). */
  env?: Record<string, string>;
  /** STORE_EDGE_REFLECTION=on: server reflection through Envoy (off: Envoy answers 404). */
  reflection?: boolean;
}

export interface Replica {
  name: string;
  httpPort: number;
  grpcPort: number;
  /** STORE_METRICS_PORT: Prometheus's /metrics, on loopback. */
  metricsPort: number;
  process: Managed;
}

export interface RunningEdge {
  /** The console and the API, through Envoy. */
  url: string;
  /** Envoy's admin API (loopback): /stats, /clusters, /stats/prometheus. */
  adminUrl: string;
  adminPort: number;
  /** Where the S3 server keeps the artifacts' bytes (tests flip one to see CORRUPT). */
  artifactDir: string;
  objectStorage: EdgeObjectStorage;
  replicas: Replica[];
  envoy: Managed;
  logDir: string;
  stop(): Promise<void>;
}

/**
 * Starts the S3 server, then the replicas one after the other (the first migrates an empty schema and issues the
 * first admin token, as `depends_on` orders them in docker-compose.yml), then Envoy with
 * proxy/envoy.yaml (addresses substituted), and resolves once Envoy reports every replica
 * healthy in both clusters.
 */
export async function startEdge(options: EdgeOptions): Promise<RunningEdge> {
  const logDir = join(options.workDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const replicas: Replica[] = [];
  let envoy: Managed | undefined;
  let objectStorage: EdgeObjectStorage | undefined;
  const stop = async () => {
    await envoy?.stop();
    await Promise.all(replicas.map((replica) => replica.process.stop()));
    await objectStorage?.process.stop();
  };
  try {
    objectStorage = await startEdgeObjectStorage(options.workDir, logDir);
    for (let n = 1; n <= (options.replicas ?? 2); n++) {
      const name = `server-${n}`;
      const [httpPort, grpcPort, metricsPort] = [
        await freePort(),
        await freePort(),
        await freePort(),
      ];
      const dataDir = join(options.workDir, name);
      mkdirSync(dataDir, { recursive: true });
      const process_ = startManaged(name, options.serverCommand, {
        cwd: ROOT,
        logFile: join(logDir, `${name}.log`),
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          ...options.env,
          DATABASE_URL: options.databaseUrl,
          STORE_PG_SCHEMA: options.pgSchema,
          STORE_DATA_DIR: dataDir,
          ...objectStorage.env,
          STORE_HOST: '127.0.0.1',
          STORE_HTTP_PORT: String(httpPort),
          STORE_GRPC_PORT: String(grpcPort),
          STORE_METRICS_HOST: '127.0.0.1',
          STORE_METRICS_PORT: String(metricsPort),
          STORE_BOOTSTRAP_TOKEN: options.bootstrapToken,
        },
        watch: 'ipc',
      });
      replicas.push({ name, httpPort, grpcPort, metricsPort, process: process_ });
      await waitUntil(
        `${name} /healthz`,
        async () => (await fetch(`http://127.0.0.1:${httpPort}/healthz`)).ok,
        90_000,
        process_,
      );
    }
    const started = await startEnvoy(options.workDir, logDir, {
      listenPort: options.listenPort,
      replicas: replicas.map(({ grpcPort, httpPort }) => ({ grpcPort, httpPort })),
      reflection: options.reflection,
    });
    envoy = started.envoy;
    const { listenPort, adminUrl, adminPort } = started;
    return {
      url: `http://127.0.0.1:${listenPort}`,
      adminUrl,
      adminPort,
      artifactDir: objectStorage.artifactDir,
      objectStorage,
      replicas,
      envoy,
      logDir,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Envoy with proxy/envoy.yaml in front of `replicas` (addresses substituted); resolves once it
 * reports every replica healthy in both clusters.
 */
export async function startEnvoy(
  workDir: string,
  logDir: string,
  options: {
    listenPort?: number | undefined;
    replicas: { grpcPort: number; httpPort: number }[];
    reflection?: boolean | undefined;
  },
): Promise<{ envoy: Managed; listenPort: number; adminUrl: string; adminPort: number }> {
  const [listenPort, adminPort] = [options.listenPort ?? (await freePort()), await freePort()];
  const config = writeEdgeEnvoyConfig(workDir, {
    listenPort,
    adminPort,
    replicas: options.replicas,
    reflection: options.reflection ?? false,
  });
  // --disable-hot-restart: several Envoys (parallel test runs) share no shared-memory region.
  const envoy = startManaged(
    'envoy',
    [ensureEnvoy(), '-c', config, '--log-level', 'warn', '--disable-hot-restart'],
    {
      cwd: workDir,
      env: { PATH: process.env.PATH },
      logFile: join(logDir, 'envoy.log'),
      watch: 'stdin',
    },
  );
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  const wanted = options.replicas.length * 2;
  try {
    await waitUntil(
      'Envoy to see every replica healthy',
      async () => {
        const clusters = await (await fetch(`${adminUrl}/clusters`)).text();
        return (clusters.match(/::health_flags::healthy$/gm) ?? []).length === wanted;
      },
      30_000,
      envoy,
    );
  } catch (error) {
    await envoy.stop();
    throw error;
  }
  return { envoy, listenPort, adminUrl, adminPort };
}
