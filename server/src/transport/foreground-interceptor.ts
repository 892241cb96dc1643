import type { Interceptor } from '@connectrpc/connect';
import { foregroundCalls } from '../engines/foreground-calls.js';
import { callScopeKey } from './call-scope.js';

/**
 * Counts unary calls as foreground work, with the tenant they were made for, which other
 * tenants' previews, dry-runs and scans step aside for (engines/event-loop-yield.ts). It runs
 * inside the access interceptors, which resolve the tenant. Streams are left out: a console
 * watching an operation or downloading an export for minutes is not a caller those should slow
 * down for.
 */
export function foregroundInterceptor(): Interceptor {
  return (next) => async (request) => {
    if (request.stream) return next(request);
    const end = foregroundCalls.begin(request.contextValues.get(callScopeKey)?.tenant);
    try {
      return await next(request);
    } finally {
      end();
    }
  };
}
