import { once, setMaxListeners } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createH2cServer, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { ConnectRouter } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import type { Interceptor } from '@connectrpc/connect';
import type { Logger } from '../logging/logger.js';
import { correctMalformedInputStatus } from './malformed-input-status.js';

export interface ListenOptions {
  host: string;
  httpPort: number;
  grpcPort: number;
  routes: (router: ConnectRouter) => void;
  interceptors: Interceptor[];
  maxMessageBytes: number;
  /** Serves everything on the HTTP port that is not an RPC: /healthz and the SPA. */
  fallback: (req: IncomingMessage, res: ServerResponse) => void;
  logger: Logger;
}

export interface Listeners {
  httpPort: number;
  grpcPort: number;
  /** Stops accepting, lets calls in flight finish for graceMs, then closes what is left. */
  close(graceMs: number): Promise<void>;
}

/**
 * Two listeners over one set of routes: HTTP/1.1 (gRPC-Web, Connect, the SPA) and cleartext
 * HTTP/2 (native gRPC, what Envoy speaks upstream). Node cannot serve h2c and HTTP/1.1 on one
 * cleartext port.
 */
export async function listen(options: ListenOptions): Promise<Listeners> {
  const shutdown = new AbortController();
  // Every call in flight links its own signal to this one; more than ten at once is normal.
  setMaxListeners(0, shutdown.signal);
  const adapterOptions = {
    routes: (router: ConnectRouter) => {
      options.routes(router);
      correctMalformedInputStatus(router);
    },
    interceptors: options.interceptors,
    readMaxBytes: options.maxMessageBytes,
    writeMaxBytes: options.maxMessageBytes,
    shutdownSignal: shutdown.signal,
  };

  const http1 = createHttpServer(
    // Response streams (exports) may run long; a request body never should.
    { requestTimeout: 120_000, headersTimeout: 30_000 },
    connectNodeAdapter({
      ...adapterOptions,
      // Only the HTTP/1.1 listener has a fallback, so the request is always an IncomingMessage.
      fallback: (req, res) => options.fallback(req as IncomingMessage, res as ServerResponse),
    }),
  );
  const h2c = createH2cServer({}, connectNodeAdapter(adapterOptions));
  const sessions = new Set<Http2Session>();
  h2c.on('session', (session) => {
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  for (const server of [http1, h2c]) {
    server.on('error', (error) => options.logger.error({ err: error }, 'listener error'));
  }

  http1.listen(options.httpPort, options.host);
  h2c.listen(options.grpcPort, options.host);
  await Promise.all([once(http1, 'listening'), once(h2c, 'listening')]);

  return {
    httpPort: (http1.address() as AddressInfo).port,
    grpcPort: (h2c.address() as AddressInfo).port,
    async close(graceMs) {
      const closed = Promise.all([
        new Promise<void>((resolve) => http1.close(() => resolve())),
        new Promise<void>((resolve) => h2c.close(() => resolve())),
      ]);
      http1.closeIdleConnections();
      // GOAWAY: clients finish their streams and open no new ones here.
      for (const session of sessions) session.close();
      const timer = setTimeout(() => {
        shutdown.abort(new Error('server shutting down'));
        http1.closeAllConnections();
        for (const session of sessions) session.destroy();
      }, graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
      shutdown.abort(new Error('server shut down'));
    },
  };
}
