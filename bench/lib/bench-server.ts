// The real server (startStoreServer via the test support) with clients acting as the bootstrap
// admin of tenant `default`, over both transports a user meets: gRPC-Web and native gRPC.
import { createClient, type Client, type Interceptor, type Transport } from '@connectrpc/connect';
import { createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import {
  BackupControlService,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import type { Dialect } from '../../server/src/storage/database.js';
import { startTestServer, type TestServer } from '../../server/test/support/test-server.js';
import type { TestStorageLocation } from '../../server/test/support/test-storage.js';

export const BENCH_TOKEN = 'bench-admin-token-0123456789abcdef';
export const TENANT = 'default';

/** The bootstrap admin's settings every bench server starts with. */
export const BENCH_SERVER_ENV: Readonly<Record<string, string>> = {
  STORE_BOOTSTRAP_TOKEN: BENCH_TOKEN,
  // As deployed: the validation threads start with the server (the test suites turn it off).
  STORE_VALIDATION_WARM_START: 'true',
};

export interface BenchClients {
  grpc: Transport;
  grpcWeb: Transport;
  backup: Client<typeof BackupControlService>;
  /** Polls until the operation is terminal; throws unless it SUCCEEDED. */
  finish(operationId: string, timeoutMs?: number): Promise<StoreOperationStatus>;
}

export interface BenchServer extends BenchClients {
  t: TestServer;
  dialect: Dialect;
  artifactDir: string;
  dispose(): Promise<void>;
}

export function withToken(token: string): Interceptor {
  return (next) => (req) => {
    req.header.set('authorization', `Bearer ${token}`);
    return next(req);
  };
}

/** The clients a bench uses on a server at these addresses (gRPC and gRPC-Web). */
export function benchClients(grpcUrl: string, httpUrl: string): BenchClients {
  const interceptors = [withToken(BENCH_TOKEN)];
  const grpc = createGrpcTransport({ baseUrl: grpcUrl, interceptors });
  const grpcWeb = createGrpcWebTransport({ baseUrl: httpUrl, httpVersion: '1.1', interceptors });
  const backup = createClient(BackupControlService, grpc);
  return {
    grpc,
    grpcWeb,
    backup,
    async finish(operationId, timeoutMs = 30 * 60_000) {
      const deadline = Date.now() + timeoutMs;
      let pause = 20;
      for (;;) {
        const { status } = await backup.getBackupOperationStatus({ operationId });
        if (!status) throw new Error(`operation ${operationId} is not visible`);
        if (status.state === StoreOperationState.SUCCEEDED) return status;
        if (status.state > StoreOperationState.SUCCEEDED) {
          throw new Error(
            `operation ${operationId} ended ${status.state}: ${status.error?.message}`,
          );
        }
        if (Date.now() > deadline) throw new Error(`operation ${operationId} still running`);
        // The server shares this process: polls every few milliseconds took a fifth of a 30 ms
        // incremental's time from it (issue 17). Timings come from finished_at (timedOperation),
        // so how often the bench looks changes no figure, only how much it disturbs.
        await new Promise((r) => setTimeout(r, pause));
        pause = Math.min(50, pause * 1.5);
      }
    },
  };
}

export async function startBenchServer(
  dialect: Dialect,
  env: Record<string, string> = {},
  /** An existing location (a server before this one stopped there); default a fresh one. */
  location?: TestStorageLocation,
): Promise<BenchServer> {
  const t = await startTestServer(dialect, { ...BENCH_SERVER_ENV, ...env }, location);
  return {
    t,
    dialect,
    artifactDir: env.STORE_ARTIFACT_DIR ?? `${t.location.dataDir}/artifacts`,
    ...benchClients(t.server.grpcUrl, t.server.httpUrl),
    dispose: () => t.dispose(),
  };
}

/**
 * Runs an operation and times it from just before the start RPC to the server's finished_at
 * (same machine, same clock), so the poll interval adds nothing to the figure.
 */
export async function timedOperation(
  s: Pick<BenchClients, 'finish'>,
  start: () => Promise<{ operationId: string }>,
): Promise<{ ms: number; value: StoreOperationStatus }> {
  const begun = Date.now();
  const { operationId } = await start();
  const value = await s.finish(operationId);
  const finished = value.finishedAt;
  if (!finished) throw new Error(`operation ${operationId} has no finished_at`);
  const finishedMs = Number(finished.seconds) * 1000 + Math.floor(finished.nanos / 1e6);
  return { ms: Math.max(1, finishedMs - begun), value };
}
