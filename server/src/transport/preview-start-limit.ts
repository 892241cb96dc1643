import type { Interceptor } from '@connectrpc/connect';
import type { CallerRateLimiter } from '../engines/operations/caller-rate-limiter.js';
import { resourceExhausted } from '../engines/errors.js';
import { accessOf, type GuardedService } from './auth/method-access.js';
import { callScopeKey } from './call-scope.js';

/**
 * Rate-limits each caller's preview, comparison and dry-run starts (docs/security.md, "Operation
 * caps and rate limits"): the methods its service's access table marks `startsPreview`, keyed by
 * tenant and subject. Over the limit → ResourceExhausted naming the limit and the retry time.
 *
 * A transport interceptor rather than a check in each engine: it refuses before the handler
 * decodes the request further or reads storage; the access table that gives each method its
 * role is the one list of methods a new preview RPC is added to, so it cannot be forgotten in
 * one engine; and the caller is the one the access gate resolved. It must run inside the
 * access interceptors (after them in the host's list), which set that caller. The bucket itself
 * is plain engine code (CallerRateLimiter), the same for any transport.
 */
export function previewStartLimitInterceptor(
  services: readonly GuardedService[],
  limiter: CallerRateLimiter,
): Interceptor {
  return (next) => async (request) => {
    const service = services.find((s) => request.service.typeName.startsWith(s.prefix));
    const method = request.method.name;
    if (!service || !accessOf(service, method).startsPreview) return next(request);
    const scope = request.contextValues.get(callScopeKey);
    if (!scope) return next(request);
    // NUL cannot occur in a tenant name or a subject, so the key names one caller.
    const refusal = limiter.take(`${scope.tenant}\u0000${scope.caller.subject}`);
    if (refusal) {
      throw resourceExhausted(
        `${method}: previews, comparisons and dry-runs are limited to ${limiter.describe()}; ` +
          `retry in ${refusal.retryAfterSeconds} s`,
        refusal.retryAfterSeconds,
      );
    }
    return next(request);
  };
}
