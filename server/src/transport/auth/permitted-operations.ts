import { Code, ConnectError, createContextKey, type HandlerContext } from '@connectrpc/connect';
import type { Logger } from '../../logging/logger.js';
import { createAuthorizationContext, type CallInfo } from './authorization-context.js';
import type { Authorizer } from './authorizers.js';
import type { GuardedService } from './method-access.js';

/**
 * The operations of the probed service the caller may call on a tree, sorted by value: what a
 * capability probe reports (spec 000 ProbeCapabilities, spec 001 rule 2).
 */
export type PermittedOperations = (treeId: string) => Promise<number[]>;

/** Set by the access interceptor before a handler runs. */
export const permittedOperationsKey = createContextKey<PermittedOperations | undefined>(undefined, {
  description: 'asks the configured authorizer which operations the caller may call',
});

/** The current call's question to the authorizer; a handler reached without one is a server fault. */
export function permittedOperationsOf(context: HandlerContext): PermittedOperations {
  const permitted = context.values.get(permittedOperationsKey);
  if (!permitted) {
    throw new ConnectError('call reached a handler without an authorizer', Code.Internal);
  }
  return permitted;
}

/**
 * Asks the configured authorizer about every operation of the service, each as its own method
 * would present it: the same caller, headers and tenant as the probe, the method's operation, and
 * the target id that method would carry for this tree (the tree for tree-scoped operations, null
 * where the target is a backup or an operation id the probe does not name). A throw counts as no
 * (fail closed). `authorizer` undefined: RequireAuthorization is false, nothing is refused by it,
 * so every operation is reported. Unknown is the probe itself, not an operation, and is left out.
 */
export function createPermittedOperations(
  service: GuardedService,
  authorizer: Authorizer | undefined,
  call: CallInfo,
  logger: Logger,
): PermittedOperations {
  return async (treeId) => {
    const probeRequest = { treeId, scope: { treeId } };
    const methodOf = new Map<number, string>();
    for (const [method, access] of Object.entries(service.methods)) {
      if (access.operation === service.unknownOperation || service.exempt.includes(method))
        continue;
      if (!methodOf.has(access.operation)) methodOf.set(access.operation, method);
    }
    const decisions = await Promise.all(
      [...methodOf].map(async ([operation, method]) => {
        if (!authorizer) return operation;
        const access = service.methods[method]!;
        const context = createAuthorizationContext(
          { ...call, method },
          operation,
          access.targetId(probeRequest),
        );
        try {
          return (await authorizer.isAuthorized(context)) ? operation : undefined;
        } catch (error) {
          logger.warn({ err: error, method }, 'authorizer threw during a capability probe');
          return undefined;
        }
      }),
    );
    return decisions.filter((operation) => operation !== undefined).sort((a, b) => a - b);
  };
}
