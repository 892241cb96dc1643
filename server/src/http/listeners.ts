import { once, setMaxListeners } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import {
  createServer as createH2cServer,
  type Http2ServerRequest,
  type Http2Session,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createContextValues, type ConnectRouter } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import type { Interceptor } from '@connectrpc/connect';
import type { Logger } from '../logging/logger.js';
import {
  correctMalformedInputStatus,
  peerAddressKey,
  writeGrpcMessagesPerSpec,
} from '../transport/index.js';
import { limitH2c, limitHttp1, type ConnectionLimits } from './connection-limits.js';
import { createHostAllowlist } from './host-allowlist.js';
import { guardRequests, requestAuthority, type RequestHandler } from './request-guard.js';
import { answerNotFound, answerUnimplemented, rpcProtocolOf } from './unknown-rpc.js';

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
  /** Default: DEFAULT_CONNECTION_LIMITS. */
  limits?: ConnectionLimits;
  /** Whether a Host / :authority is one this server answers; default: the default allowlist. */
  hostAllowed?: (authority: string) => boolean;
}

/** What the settings default to (STORE_MAX_CONNECTIONS, _HANDSHAKE_TIMEOUT, _IDLE_TIMEOUT). */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  maxConnections: 1000,
  handshakeTimeoutMs: 30_000,
  idleTimeoutMs: 300_000,
};

/**
 * The h2c listener's receive windows. HTTP/2's default (64 KiB per stream and per connection)
 * makes a 300 KiB PutEntries request wait for five WINDOW_UPDATEs, each sent only when the busy
 * event loop gets to it: imports through Envoy or a gRPC client stalled between their batches
 * (issue 17: +15 % PutEntries with these). A call's body is read whole anyway, up to
 * maxMessageBytes, so a larger window lets no client make the server hold more than it would.
 */
export const H2C_STREAM_WINDOW_BYTES = 1 << 20;
export const H2C_CONNECTION_WINDOW_BYTES = 8 << 20;

/** Health answers any Host: probes address replicas by IP or cluster name, and it tells nothing. */
function isHealthPath(path: string): boolean {
  return path === '/healthz' || path.startsWith('/grpc.health.v1.Health/');
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
    // The socket peer, for the audit trail and the sign-in limit (interceptors see no socket).
    contextValues: (req: IncomingMessage | Http2ServerRequest) =>
      createContextValues().set(peerAddressKey, req.socket.remoteAddress),
  };

  const limits = options.limits ?? DEFAULT_CONNECTION_LIMITS;
  const hostAllowed = options.hostAllowed ?? createHostAllowlist([], options.host);
  // Every request passes the guard first: no request, however malformed, may end the process.
  const admit = (req: Parameters<RequestHandler>[0]) => {
    const authority = requestAuthority(req) ?? '';
    if (isHealthPath(req.url ?? '') || hostAllowed(authority)) return undefined;
    return {
      status: 421,
      message: `host ${JSON.stringify(authority)} is not served here (STORE_ALLOWED_HOSTS)`,
    };
  };
  // Every answer's grpc-message is written as gRPC's spec says, whichever client reads it.
  const guarded = (handler: RequestHandler) =>
    guardRequests(
      (req, res) => {
        writeGrpcMessagesPerSpec(res);
        return handler(req, res);
      },
      options.logger,
      admit,
    );
  const http1 = createHttpServer(
    // Response streams (exports) may run long; a request body never should.
    { requestTimeout: 120_000, headersTimeout: limits.handshakeTimeoutMs },
    guarded(
      connectNodeAdapter({
        ...adapterOptions,
        // What matched no route: an RPC is Unimplemented in its protocol, the rest is the SPA's.
        fallback: (req, res) => {
          const protocol = rpcProtocolOf(req);
          if (protocol) answerUnimplemented(req, res, protocol);
          else options.fallback(req as IncomingMessage, res as ServerResponse);
        },
      }) as RequestHandler,
    ),
  );
  const h2c = createH2cServer(
    { settings: { initialWindowSize: H2C_STREAM_WINDOW_BYTES } },
    guarded(
      connectNodeAdapter({
        ...adapterOptions,
        fallback: (req, res) => {
          const protocol = rpcProtocolOf(req);
          if (protocol) answerUnimplemented(req, res, protocol);
          else answerNotFound(req, res);
        },
      }) as RequestHandler,
    ),
  );
  limitHttp1(http1, limits);
  limitH2c(h2c, limits);
  const sessions = new Set<Http2Session>();
  // Destroying a session whose peer stopped reading leaves its socket open (Node 20), and h2c's
  // close waits for every socket: past the grace, the sockets are reset.
  const h2cSockets = new Set<Socket>();
  h2c.on('connection', (socket: Socket) => {
    h2cSockets.add(socket);
    socket.once('close', () => h2cSockets.delete(socket));
  });
  h2c.on('session', (session) => {
    sessions.add(session);
    session.setLocalWindowSize(H2C_CONNECTION_WINDOW_BYTES);
    session.once('close', () => sessions.delete(session));
  });
  // Every HTTP/1.1 socket, too: one handed to a 'connect' listener leaves the server's own list,
  // so closeAllConnections misses it, yet close() still waits for it.
  const http1Sockets = new Set<Socket>();
  http1.on('connection', (socket: Socket) => {
    http1Sockets.add(socket);
    socket.once('close', () => http1Sockets.delete(socket));
  });
  // Without a listener Node drops a CONNECT request's socket unanswered; say what happened, then
  // close it: ending only our side left a client that never closed its own (half-open) holding
  // the listener's close, and with it the server's shutdown, indefinitely.
  http1.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end(
      'HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n',
      () => socket.destroy(),
    );
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
        for (const socket of http1Sockets) socket.destroy();
        for (const session of sessions) session.destroy();
        for (const socket of h2cSockets) socket.resetAndDestroy();
      }, graceMs);
      timer.unref();
      await closed;
      clearTimeout(timer);
      shutdown.abort(new Error('server shut down'));
    },
  };
}
