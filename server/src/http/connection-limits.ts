import type { Server as HttpServer } from 'node:http';
import type { Http2Server, ServerHttp2Session } from 'node:http2';
import type { Socket } from 'node:net';

export interface ConnectionLimits {
  /** Connections each listener holds at once; more are closed as they arrive. */
  maxConnections: number;
  /** Time a connection gets to send its request head (HTTP/1.1) or its preface (h2c). */
  handshakeTimeoutMs: number;
  /** Time an h2c session may stay open without a stream before it is closed (GOAWAY). */
  idleTimeoutMs: number;
}

/** HTTP/1.1: a connection cap; the head timeout is the server's own `headersTimeout`. */
export function limitHttp1(server: HttpServer, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
}

/**
 * h2c had no timeouts: a socket that never sent the HTTP/2 preface stayed open indefinitely, and
 * so did a session with no stream. Node's server `timeout` would also cut long, quiet streams
 * (a WatchHealth between changes), so the limits here look at the session's state instead:
 * no client SETTINGS within the handshake timeout → destroyed; no open stream for the idle
 * timeout → closed gracefully (GOAWAY; a client such as Envoy simply reconnects).
 */
export function limitH2c(server: Http2Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
  // Node's own 'connection' listener creates the session and emits 'session' synchronously,
  // before this module's 'connection' listener runs: that pairs a socket with its session.
  // Neither destroying that session nor its socket closes the connection while the native
  // HTTP/2 session holds the handle (Node 20); a reset does.
  let newest: ServerHttp2Session | undefined;
  server.on('connection', (socket: Socket) => {
    const session = newest;
    newest = undefined;
    const handshake = setTimeout(() => socket.resetAndDestroy(), limits.handshakeTimeoutMs);
    handshake.unref();
    session?.once('remoteSettings', () => clearTimeout(handshake));
    socket.once('close', () => clearTimeout(handshake));
  });
  server.on('session', (session: ServerHttp2Session) => {
    newest = session;

    let open = 0;
    let idle: NodeJS.Timeout | undefined;
    const startIdle = () => {
      idle = setTimeout(() => {
        if (!session.closed && !session.destroyed) session.close();
      }, limits.idleTimeoutMs);
      idle.unref();
    };
    startIdle();
    session.on('stream', (stream) => {
      open += 1;
      clearTimeout(idle);
      stream.once('close', () => {
        open -= 1;
        if (open === 0) startIdle();
      });
    });
    session.once('close', () => clearTimeout(idle));
  });
}
