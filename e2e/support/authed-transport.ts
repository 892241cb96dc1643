import type { Transport } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { Agent } from 'node:http';

// A new connection per call: a test that blocks its own event loop (a synchronous seed of a large
// tree) past the server's keep-alive timeout would otherwise write its next call on a socket the
// server already closed, and fail with EPIPE before the close was seen.
const noKeepAlive = new Agent({ keepAlive: false });

/** gRPC-Web over HTTP/1.1, as the browser speaks it, with a bearer credential and an active tenant. */
export function authedGrpcWebTransport(baseUrl: string, token: string, tenant: string): Transport {
  return createGrpcWebTransport({
    baseUrl,
    httpVersion: '1.1',
    nodeOptions: { agent: noKeepAlive },
    interceptors: [
      (next) => (request) => {
        request.header.set('authorization', `Bearer ${token}`);
        request.header.set('store-active-tenant', tenant);
        return next(request);
      },
    ],
  });
}
