import { Code, ConnectError, createContextKey, type Interceptor } from '@connectrpc/connect';
import type { AuditTrail } from '../engines/audit/audit-trail.js';
import { accessOf, type GuardedService } from './auth/method-access.js';
import { callScopeKey, callerScopeKey } from './call-scope.js';
import { clientAddressOf, peerAddressKey, type TrustedProxies } from './client-address.js';

/**
 * What the access interceptor learns about a call, for its audit record: filled in as the checks
 * run, so a refused call's record still names whoever and whatever was refused.
 */
export interface AuditFacts {
  clientAddress: string;
  subject?: string;
  tenant?: string;
  targetId?: string | null;
  /** True once a presented credential verified: the caller is known, whatever happens next. */
  verified?: boolean;
  /** Set by a handler to say what its successful call did beyond its name (a revert's discards). */
  detail?: string;
  /** Set by a handler whose call destroys its target (DeleteBackup): the name it had. */
  targetName?: string;
}

export const auditFactsKey = createContextKey<AuditFacts | undefined>(undefined, {
  description: 'what the audit record of this call will say',
});

const REFUSALS: ReadonlySet<Code> = new Set([Code.Unauthenticated, Code.PermissionDenied]);

/** OK, or the gRPC code's canonical name in upper snake case (PermissionDenied → PERMISSION_DENIED). */
export function outcomeName(code: Code | undefined): string {
  if (code === undefined) return 'OK';
  return Code[code].replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
}

const operationIdOf = (message: unknown): string | null => {
  const value = (message as Record<string, unknown> | undefined)?.operationId;
  return typeof value === 'string' && value !== '' ? value : null;
};

/**
 * The audit seam (issue 18, ASVS V7), outermost of the interceptors so it sees every guarded call
 * once, with its final status: every state-changing call (MethodAccess.changesState) and every
 * refusal (Unauthenticated, PermissionDenied) of the store's services becomes one record. A
 * refusal is answered only after its record is stored; a state-changing call's record is written
 * in the batch of its turn without delaying the answer.
 *
 * A refusal of a caller with no verified credential (anonymous, malformed, unknown, expired or
 * revoked) names no tenant in its record, whatever tenant the call named: that name is the
 * caller's claim, and anyone could otherwise fill a tenant's trail. Such records are seen by the
 * bootstrap tenant's admins, and are rate limited per client address: past the limit the call is
 * answered ResourceExhausted (the limit and the retry time in the message) and the window ends in
 * one summary record (docs/security.md, "Audit trail limits"). Every field is cut to its length
 * by the trail.
 */
export function auditInterceptor(options: {
  services: readonly GuardedService[];
  trail: AuditTrail;
  trustedProxies: TrustedProxies;
}): Interceptor {
  const { trail, trustedProxies } = options;
  return (next) => async (request) => {
    const serviceName = request.service.typeName;
    const service = options.services.find((s) => serviceName.startsWith(s.prefix));
    if (!service) return next(request);
    const method = request.method.name;
    const facts: AuditFacts = {
      clientAddress: clientAddressOf(
        request.contextValues.get(peerAddressKey),
        request.header.get('x-forwarded-for'),
        trustedProxies,
      ),
    };
    request.contextValues.set(auditFactsKey, facts);
    const changesState = accessOf(service, method).changesState === true;
    const requestMessage = request.stream ? undefined : request.message;

    const record = (error: unknown): Promise<void> | undefined => {
      const code = error === undefined ? undefined : ConnectError.from(error).code;
      if (!changesState && (code === undefined || !REFUSALS.has(code))) return undefined;
      const scope =
        request.contextValues.get(callScopeKey) ?? request.contextValues.get(callerScopeKey);
      const refused = code !== undefined && REFUSALS.has(code);
      const unverified = refused && facts.verified !== true;
      const written = trail.record(
        {
          tenant: unverified ? '' : (scope?.tenant ?? facts.tenant ?? ''),
          subject: scope?.caller.subject ?? facts.subject ?? '',
          service: serviceName,
          method,
          targetId: facts.targetId ?? operationIdOf(requestMessage),
          ...(facts.targetName !== undefined && { targetName: facts.targetName }),
          outcome: outcomeName(code),
          clientAddress: facts.clientAddress,
          detail: error === undefined ? (facts.detail ?? '') : ConnectError.from(error).rawMessage,
        },
        { urgent: refused },
      );
      return refused ? written : undefined;
    };

    /** The refusal to answer with: the call's own, or ResourceExhausted past the address's limit. */
    const refusal = async (error: unknown): Promise<unknown> => {
      const code = ConnectError.from(error).code;
      if (REFUSALS.has(code) && facts.verified !== true) {
        const verdict = trail.admitUnverifiedRefusal(facts.clientAddress);
        if (verdict.limited) {
          const { limit, windowSeconds, retryAfterSeconds } = verdict;
          return new ConnectError(
            `too many refused calls from ${facts.clientAddress}: at most ${limit} in ` +
              `${windowSeconds} s are answered; retry after ${retryAfterSeconds} s`,
            Code.ResourceExhausted,
            { 'retry-after': String(retryAfterSeconds) },
          );
        }
      }
      await record(error);
      return error;
    };

    let response;
    try {
      response = await next(request);
    } catch (error) {
      throw await refusal(error);
    }
    if (!response.stream) {
      void record(undefined);
      return response;
    }
    // A stream may still be refused part-way (a credential re-checked on a long stream).
    const messages = response.message;
    return {
      ...response,
      message: (async function* () {
        try {
          yield* messages;
        } catch (error) {
          throw await refusal(error);
        }
        void record(undefined);
      })(),
    };
  };
}
