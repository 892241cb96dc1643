import {
  Code,
  ConnectError,
  type Interceptor,
  type StreamRequest,
  type UnaryRequest,
} from '@connectrpc/connect';
import type { CredentialVerifier } from '../../engines/identity/credential-verifier.js';
import { ANONYMOUS, CredentialError, type Principal } from '../../engines/identity/principal.js';
import type { SignInLimiter } from '../../engines/audit/sign-in-limiter.js';
import { apiTokenIdOf } from '../../engines/identity/api-tokens.js';
import type { Logger } from '../../logging/logger.js';
import { auditFactsKey, type AuditFacts } from '../audit-interceptor.js';
import { callScopeKey, callerScopeKey } from '../call-scope.js';
import { peerAddressKey } from '../client-address.js';
import { assertNoNulText } from '../request-text-guard.js';
import { resolveCallScope, resolveCaller, requestedTenantOf } from './access-gate.js';
import { createAuthorizationContext, type CallInfo } from './authorization-context.js';
import type { Authorizer } from './authorizers.js';
import type { CredentialBridge } from './credential-bridge.js';
import { accessOf, type GuardedService } from './method-access.js';
import type { StoreApiOptions } from './options.js';
import { createPermittedOperations, permittedOperationsKey } from './permitted-operations.js';
import { recheckWhileOpen } from './stream-recheck.js';

const DEFAULT_STREAM_CREDENTIAL_CHECK_MS = 10_000;

export interface AccessSeams {
  options: StoreApiOptions;
  bridge: CredentialBridge;
  verify: CredentialVerifier;
  authorizer: Authorizer;
  logger: Logger;
  /** Refuses callers from an address with too many refused credentials (issue 18). */
  signInLimiter?: SignInLimiter | undefined;
}

/**
 * The authorization interceptor of one service family, selected by service-name prefix so other
 * services on the host are unaffected. Order of checks (docs/contract.md, "Order of checks"):
 * exempt methods pass; an authorizer that refuses every call (deny-all) refuses before anything is
 * read; the tenant header must be well formed; a present credential must verify (Unauthenticated),
 * whether or not RequireAuthorization is on; while it is on, the authorizer must say yes
 * (PermissionDenied, anonymous callers included, fail closed); the gate resolves the tenant.
 */
export function createAccessInterceptor(service: GuardedService, seams: AccessSeams): Interceptor {
  const { options, logger } = seams;
  const authorizer = options.requireAuthorization ? seams.authorizer : undefined;
  return (next) => async (request) => {
    const serviceName = request.service.typeName;
    if (!serviceName.startsWith(service.prefix)) return next(request);
    const method = request.method.name;
    if (service.exempt.includes(method)) return next(request);
    // Spec 000/001 Errors: with the default authorizer every protected call gets PermissionDenied,
    // so nothing about the call (credential, header, body) may change the answer.
    if (authorizer?.refusesEveryCall) {
      throw new ConnectError(`${method} is not permitted for this caller`, Code.PermissionDenied);
    }

    const { message, request: forward } = await firstMessage(request);
    // The audit seam's notes on this call, when the host records an audit trail.
    const facts: AuditFacts = request.contextValues.get(auditFactsKey) ?? { clientAddress: '' };
    const access = accessOf(service, method);
    const targetId = access.targetId(message);
    facts.targetId = targetId;
    const requested = requestedTenantOf(request.header, options.activeTenantHeaderName);
    if (requested !== undefined) facts.tenant = requested;

    const call: CallInfo = {
      service: serviceName,
      method,
      requestHeader: request.header,
      signal: request.signal,
    };
    // The bridge runs with RequireAuthorization false too: the credential still names the caller
    // and the tenant (spec rule 6); only the authorizer is skipped.
    const credential = seams.bridge.resolve(call);
    let principal: Principal = ANONYMOUS;
    if (credential !== null) {
      const address = facts.clientAddress || (request.contextValues.get(peerAddressKey) ?? '');
      principal = await signedIn(credential, address, seams, method);
      // A refusal from here on is of a known caller: recorded in its tenant's trail.
      facts.verified = true;
    }
    facts.subject = principal.subject;
    const onlyTenant = principal.grants.size === 1 ? [...principal.grants.keys()][0] : undefined;
    if (requested === undefined && onlyTenant !== undefined) facts.tenant = onlyTenant;
    const asked: CallInfo = {
      ...call,
      principal,
      ...(requested !== undefined && { requestedTenant: requested }),
    };

    if (authorizer) {
      let allowed = false;
      try {
        allowed = await authorizer.isAuthorized(
          createAuthorizationContext(asked, access.operation, targetId),
        );
      } catch (error) {
        logger.warn({ err: error, method }, 'authorizer threw; refusing the call');
      }
      if (!allowed) {
        throw new ConnectError(`${method} is not permitted for this caller`, Code.PermissionDenied);
      }
    }

    if (service.tenantOptional) {
      const scope = resolveCaller(principal, requested, options.trustedTenant);
      forward.contextValues.set(callerScopeKey, scope);
      if (scope.tenant !== undefined) {
        forward.contextValues.set(callScopeKey, { caller: scope.caller, tenant: scope.tenant });
      }
    } else {
      const scope = resolveCallScope(
        principal,
        requested,
        options.activeTenantHeaderName,
        options.trustedTenant,
      );
      forward.contextValues.set(callScopeKey, scope);
    }
    forward.contextValues.set(
      permittedOperationsKey,
      createPermittedOperations(service, authorizer, asked, logger),
    );
    // After the gate, so a caller who may not call learns nothing about the request's form.
    assertNoNulText(message);
    const response = await next(forward);
    if (!response.stream || credential === null) return response;
    const presented = credential;
    return {
      ...response,
      message: recheckWhileOpen(
        response.message,
        () => verified(presented, seams.verify, logger, method),
        options.streamCredentialCheckMs ?? DEFAULT_STREAM_CREDENTIAL_CHECK_MS,
        request.signal,
      ),
    };
  };
}

/**
 * Verifies a presented credential. A credential that verifies is let in whatever others sent from
 * the same address or with the same token id (a shared NAT must not lock its good users out); a
 * refused one counts against the address and, for an API token, against the token id it names
 * (from any address), and past either's failed sign-in limit is answered ResourceExhausted with
 * retry-after. Guessing stays hopeless: an API token is 256 random bits, an OIDC token is signed.
 */
async function signedIn(
  credential: string,
  address: string,
  seams: AccessSeams,
  method: string,
): Promise<Principal> {
  const limiter = seams.signInLimiter;
  try {
    return await verified(credential, seams.verify, seams.logger, method);
  } catch (error) {
    if (!limiter) throw error;
    const tokenId = apiTokenIdOf(credential);
    const counted = [
      { key: address, what: 'from this address' },
      ...(tokenId ? [{ key: `token ${tokenId}`, what: 'with this token' }] : []),
    ];
    const over = counted
      .map((c) => ({ ...c, retryAfter: limiter.retryAfterSeconds(c.key) }))
      .sort((a, b) => b.retryAfter - a.retryAfter)[0];
    for (const c of counted) limiter.recordFailure(c.key);
    if (over && over.retryAfter > 0) {
      throw new ConnectError(
        `too many failed sign-ins ${over.what}; retry after ${over.retryAfter} s`,
        Code.ResourceExhausted,
        { 'retry-after': String(over.retryAfter) },
      );
    }
    throw error;
  }
}

async function verified(
  credential: string,
  verify: CredentialVerifier,
  logger: Logger,
  method: string,
): Promise<Principal> {
  try {
    return await verify(credential);
  } catch (error) {
    const reason = error instanceof CredentialError ? error.reason : 'error';
    // The reason, never the credential.
    logger.info({ method, reason }, 'credential refused');
    throw new ConnectError(
      error instanceof CredentialError
        ? `credential refused: ${error.message}`
        : 'credential refused',
      Code.Unauthenticated,
    );
  }
}

/**
 * The request message, for the target id. A server-streaming request carries it as a one-item
 * stream, which is read here and handed on unchanged.
 */
async function firstMessage(
  request: UnaryRequest | StreamRequest,
): Promise<{ message: unknown; request: UnaryRequest | StreamRequest }> {
  if (!request.stream) return { message: request.message, request };
  if (request.method.methodKind !== 'server_streaming') return { message: undefined, request };
  const items: unknown[] = [];
  for await (const item of request.message) items.push(item);
  const replay = (async function* () {
    yield* items;
  })();
  return { message: items[0], request: { ...request, message: replay } as StreamRequest };
}
