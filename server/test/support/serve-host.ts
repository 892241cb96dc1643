import { createGrpcTransport } from '@connectrpc/connect-node';
import type { Transport } from '@connectrpc/connect';
import { pino } from 'pino';
import { listen, type Listeners } from '../../src/http/listeners.js';
import { errorMappingInterceptor } from '../../src/transport/error-interceptor.js';
import {
  registerHealthService,
  type HealthRegistry,
} from '../../src/transport/grpc/health-service.js';
import type { StoreApiHost } from '../../src/transport/store-api-host.js';

export const silentLogger = pino({ level: 'silent' });

/**
 * Serves what a host composed itself (the library path, not the shipped server) on port 0, with
 * the error mapping outermost as the shipped server has it; close() stops it.
 */
export async function serveHost(
  host: StoreApiHost,
  health?: HealthRegistry,
): Promise<{ transport: Transport; listeners: Listeners }> {
  const routes = (router: Parameters<typeof host.routes>[0]) => {
    host.routes(router);
    if (health) registerHealthService(router, health);
  };
  const listeners = await listen({
    host: '127.0.0.1',
    httpPort: 0,
    grpcPort: 0,
    routes,
    interceptors: [errorMappingInterceptor(silentLogger), ...host.interceptors],
    maxMessageBytes: 1 << 20,
    fallback: (_req, res) => res.writeHead(404).end(),
    logger: silentLogger,
  });
  const transport = createGrpcTransport({ baseUrl: `http://127.0.0.1:${listeners.grpcPort}` });
  return { transport, listeners };
}
