import { Code, ConnectError, createContextKey, type HandlerContext } from '@connectrpc/connect';
import type { Principal } from '../engines/identity/principal.js';

/** Who is calling, as the credential bridge resolved it (anonymous when no credential came). */
export type Caller = Principal;

/** The caller and the tenant the call acts in: every engine call is scoped by this. */
export interface CallScope {
  caller: Caller;
  tenant: string;
}

/**
 * The caller and the active tenant when one could be resolved. IdentityService works with this:
 * WhoAmI answers a caller of several tenants who sent no active-tenant header (the console asks
 * it before the user has picked a tenant).
 */
export interface CallerScope {
  caller: Caller;
  tenant: string | undefined;
}

/** Set by the access gate, for services whose calls need no tenant. */
export const callerScopeKey = createContextKey<CallerScope | undefined>(undefined, {
  description: 'the resolved caller and, when known, the active tenant',
});

/** Set by the access gate before a handler runs. */
export const callScopeKey = createContextKey<CallScope | undefined>(undefined, {
  description: 'the resolved caller and active tenant',
});

/** The scope of the current call; a handler reached without one is a server fault. */
export function callScopeOf(context: HandlerContext): CallScope {
  const scope = context.values.get(callScopeKey);
  if (!scope) throw new ConnectError('call reached a handler without a scope', Code.Internal);
  return scope;
}

/** The caller of the current call, with the active tenant when one was resolved. */
export function callerScopeOf(context: HandlerContext): CallerScope {
  const scope = context.values.get(callerScopeKey) ?? context.values.get(callScopeKey);
  if (!scope) throw new ConnectError('call reached a handler without a caller', Code.Internal);
  return scope;
}
