import type { HandlerContext } from '@connectrpc/connect';
import type { Principal } from '../../engines/identity/principal.js';

/**
 * What an authorizer decides on (spec 000/001, Authorization context): the call (headers,
 * deadline, peer), the operation, and the target id or null.
 */
export interface AuthorizationContext<Operation extends number = number> {
  readonly call: CallInfo;
  readonly operation: Operation;
  readonly targetId: string | null;
}

/** The parts of the gRPC call an authorizer may look at. */
export interface CallInfo {
  readonly service: string;
  readonly method: string;
  readonly requestHeader: Headers;
  readonly signal: AbortSignal;
  readonly context?: HandlerContext;
  /** The caller the credential bridge resolved (anonymous when no credential came). */
  readonly principal?: Principal;
  /** The tenant named by the active-tenant header, if any. */
  readonly requestedTenant?: string;
}

/** Builds the context; a missing call is a TypeError (the spec's ArgumentNullException). */
export function createAuthorizationContext<Operation extends number>(
  call: CallInfo,
  operation: Operation,
  targetId: string | null,
): AuthorizationContext<Operation> {
  if (call === null || call === undefined) throw new TypeError('call is required');
  return Object.freeze({ call, operation, targetId });
}
