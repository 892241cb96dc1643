import { Code, ConnectError, createContextKey, type HandlerContext } from '@connectrpc/connect';
import type { Principal } from '../engines/identity/principal.js';

/** Who is calling, as the credential bridge resolved it (anonymous when no credential came). */
export type Caller = Principal;

/** The caller and the tenant the call acts in: every engine call is scoped by this. */
export interface CallScope {
  caller: Caller;
  tenant: string;
}

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
