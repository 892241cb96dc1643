import type { Interceptor } from '@connectrpc/connect';

/** A client interceptor that sends `Authorization: Bearer <token>` on every call. */
export function bearerInterceptor(token: string): Interceptor {
  return (next) => (req) => {
    req.header.set('authorization', `Bearer ${token}`);
    return next(req);
  };
}
