import type { HandlerContext } from '@connectrpc/connect';
import type { StoreOperationListRequest } from '@store/contract';
import { callScopeOf } from '../call-scope.js';
import {
  toListFilter,
  toOperationStatus,
  type OperationView,
  type ResultMapper,
} from './operation-mapping.js';
import type { OperationsFacade } from './operations-facade.js';

/**
 * Status, list and cancel of one family of operations, within the caller's tenant: the three
 * RPCs every service with tracked operations has (an id of another family reads as absent).
 */
export function operationQueries(
  facade: OperationsFacade,
  kinds: readonly string[],
  resultMappers: Readonly<Record<string, ResultMapper>>,
) {
  const statusOf = (operation: OperationView | undefined) => ({
    status: operation && toOperationStatus(operation, resultMappers),
  });
  return {
    async status(request: { operationId: string }, context: HandlerContext) {
      const { tenant } = callScopeOf(context);
      return statusOf(await facade.get(tenant, request.operationId, kinds));
    },
    async list(request: StoreOperationListRequest, context: HandlerContext) {
      const { tenant } = callScopeOf(context);
      const page = await facade.list(tenant, toListFilter(request, kinds));
      return {
        operations: page.operations.map((o) => toOperationStatus(o, resultMappers)),
        nextPageToken: page.nextPageToken,
      };
    },
    async cancel(request: { operationId: string }, context: HandlerContext) {
      const { tenant, caller } = callScopeOf(context);
      return statusOf(await facade.cancel(tenant, request.operationId, kinds, caller.subject));
    },
  };
}
