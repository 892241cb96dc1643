import {
  BackupLifecycleService,
  StoreOperationKind,
  StoreOperationState,
  type StoreOperationPage,
} from '@store/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { LifecycleClient } from '../api/lifecycle-client';
import { rpcKey } from '../query-keys';
import type { ConsoleOperationPage } from './use-operation-lists';
import type { ConsoleOperation } from './schema-insight-operations';

/**
 * A lifecycle list page as the console lists it. A retention apply's status carries no result,
 * so each succeeded apply's result (what it deleted, the bytes freed) is fetched once: a
 * finished apply's result never changes, so it is cached for good and polling costs nothing.
 */
export async function withRetentionResults(
  page: StoreOperationPage,
  client: LifecycleClient,
  queryClient: QueryClient,
  signal?: AbortSignal,
): Promise<ConsoleOperationPage> {
  const operations = await Promise.all(
    page.operations.map(async (status): Promise<ConsoleOperation> => {
      if (
        status.kind !== StoreOperationKind.RETENTION_APPLY ||
        status.state !== StoreOperationState.SUCCEEDED
      ) {
        return status;
      }
      const request = { operationId: status.operationId };
      const result = await queryClient.query({
        queryKey: rpcKey(BackupLifecycleService.method.getRetentionApplyResult, request),
        queryFn: () => client.getRetentionApplyResult(request, { signal }),
        // Asked again only if the result was not there yet when the status said succeeded.
        staleTime: (query) => (query.state.data?.available ? Infinity : 0),
      });
      return result.available ? { ...status, retentionApplyResult: result } : status;
    }),
  );
  return { operations, nextPageToken: page.nextPageToken };
}
