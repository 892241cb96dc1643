import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  BackupControlService,
  SchemaControlService,
  StoreOperationState,
  type StoreOperationListRequestSchema,
  type StoreOperationPage,
} from '@store/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { listPollInterval } from '../polling';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

export type OperationListRequest = MessageInitShape<typeof StoreOperationListRequestSchema>;

/**
 * Queued and running operations, one page per service: the tray's request. The dashboard sends
 * it to the letter, so both share one cache entry and the dashboard costs no request of its own.
 */
export const ACTIVE_OPERATIONS_REQUEST = {
  states: [StoreOperationState.QUEUED, StoreOperationState.RUNNING],
  pageSize: 50,
};

export interface OperationListsOptions {
  /** Which services to ask (both by default); a skipped one stays pending and idle. */
  families?: { backup: boolean; schema: boolean };
  /** Keep the previous page on screen while a changed request loads (e.g. "load more"). */
  keepPreviousPage?: boolean;
}

/**
 * One operations list request sent to both services, one query each. Each polls FAST while it
 * shows a queued or running operation and SLOW otherwise, and not while the tab is hidden
 * (STYLE.md, polling): one list request per service per tick, whatever the number of rows.
 */
export function useOperationLists(
  request: OperationListRequest,
  { families, keepPreviousPage = false }: OperationListsOptions = {},
) {
  const api = useApi();
  const polling = {
    refetchInterval: (query: { state: { data: StoreOperationPage | undefined } }) =>
      listPollInterval(query.state.data?.operations),
    refetchIntervalInBackground: false,
    ...(keepPreviousPage && { placeholderData: keepPreviousData }),
  } as const;
  const backup = useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackupOperations, request),
    queryFn: ({ signal }) => api.backup.listBackupOperations(request, { signal }),
    enabled: families?.backup ?? true,
    ...polling,
  });
  const schema = useQuery({
    queryKey: rpcKey(SchemaControlService.method.listSchemaOperations, request),
    queryFn: ({ signal }) => api.schema.listSchemaOperations(request, { signal }),
    enabled: families?.schema ?? true,
    ...polling,
  });
  return { backup, schema };
}
