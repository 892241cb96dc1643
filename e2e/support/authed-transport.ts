import type { Transport } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';

/** gRPC-Web over HTTP/1.1, as the browser speaks it, with a bearer credential and an active tenant. */
export function authedGrpcWebTransport(baseUrl: string, token: string, tenant: string): Transport {
  return createGrpcWebTransport({
    baseUrl,
    httpVersion: '1.1',
    interceptors: [
      (next) => (request) => {
        request.header.set('authorization', `Bearer ${token}`);
        request.header.set('store-active-tenant', tenant);
        return next(request);
      },
    ],
  });
}
