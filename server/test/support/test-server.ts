import { createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import type { Transport } from '@connectrpc/connect';
import { pino } from 'pino';
import type { Logger } from '../../src/logging/logger.js';
import { startStoreServer, type StoreServer } from '../../src/app.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { Dialect } from '../../src/storage/database.js';
import {
  newStorageLocation,
  removeStorageLocation,
  type TestStorageLocation,
} from './test-storage.js';

export interface TestServer {
  server: StoreServer;
  location: TestStorageLocation;
  /** gRPC-Web over HTTP/1.1 (what the browser speaks). */
  grpcWeb: Transport;
  /** Native gRPC over h2c (what Envoy speaks upstream). */
  grpc: Transport;
  dispose(): Promise<void>;
}

/**
 * Starts the real server on ports 0 with fresh storage of the given dialect. Extra environment
 * settings use the runtime names (STORE_*).
 */
export async function startTestServer(
  dialect: Dialect,
  env: Record<string, string> = {},
  location: TestStorageLocation = newStorageLocation(dialect),
  logger: Logger = pino({ level: 'silent' }),
): Promise<TestServer> {
  const config = loadConfig({
    env: {
      STORE_DATA_DIR: location.dataDir,
      ...(location.databaseUrl ? { DATABASE_URL: location.databaseUrl } : {}),
      ...(location.postgresSchema ? { STORE_PG_SCHEMA: location.postgresSchema } : {}),
      STORE_HTTP_PORT: '0',
      STORE_GRPC_PORT: '0',
      STORE_SHUTDOWN_GRACE_MS: '2000',
      // The suites refuse hundreds of calls from 127.0.0.1 within seconds on purpose (every RPC
      // anonymously, bad tokens); the refusal limit's own tests set their own.
      STORE_REFUSAL_LIMIT: '10000',
      // Hundreds of servers start in the suites, most never checking a policy: their validation
      // threads start at the first check (the bench and e2e keep the default warm start).
      STORE_VALIDATION_WARM_START: 'false',
      // Dozens of servers share a process: the metrics tests open a listener (port 0) of their own.
      STORE_METRICS_PORT: 'off',
      ...env,
    },
  });
  const server = await startStoreServer(config, logger);
  return {
    server,
    location,
    grpcWeb: createGrpcWebTransport({ baseUrl: server.httpUrl, httpVersion: '1.1' }),
    grpc: createGrpcTransport({ baseUrl: server.grpcUrl }),
    async dispose() {
      await server.stop();
      await removeStorageLocation(location);
    },
  };
}
