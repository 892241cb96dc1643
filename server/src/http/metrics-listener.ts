import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../logging/logger.js';

export interface MetricsListenerOptions {
  host: string;
  port: number;
  /** The metrics in Prometheus' text format and their content type. */
  scrape: () => Promise<{ contentType: string; body: string }>;
  logger: Logger;
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * The Prometheus listener (STORE_METRICS_PORT): plain HTTP/1.1 answering GET /metrics and 404
 * for anything else. Its own port, so the metrics can stay on a network the API is not on (and
 * the API's Host allowlist and sign-in do not apply to a scraper).
 */
export async function listenForMetrics(options: MetricsListenerOptions): Promise<MetricsListener> {
  const { scrape, logger } = options;
  const server: Server = createServer(
    { headersTimeout: 10_000, requestTimeout: 30_000 },
    (req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('not found: the metrics are at GET /metrics\n');
        return;
      }
      scrape().then(
        ({ contentType, body }) => {
          res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : body);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('the metrics could not be read\n');
        },
      );
    },
  );
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      server.off('listening', listening);
      reject(error);
    };
    const listening = () => {
      server.off('error', failed);
      resolve();
    };
    server.once('error', failed);
    server.once('listening', listening);
    server.listen(options.port, options.host);
  });
  server.on('error', (error) => logger.error({ err: error }, 'metrics listener error'));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A scrape is short and repeatable: nothing in flight is worth waiting for.
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
