import {
  BackupControlService,
  SchemaControlService,
  StoreOperationState,
  type StoreOperationPage,
} from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { listPollInterval } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { mergeOperationPages } from '../api/merge-operations';

const ACTIVE_REQUEST = {
  states: [StoreOperationState.QUEUED, StoreOperationState.RUNNING],
  pageSize: 50,
};

const polling = {
  refetchInterval: (query: { state: { data: StoreOperationPage | undefined } }) =>
    listPollInterval(query.state.data?.operations),
  refetchIntervalInBackground: false,
} as const;

/** The tenant's queued and running operations of both services, for the tray. */
export function useListActiveOperationsQuery() {
  const api = useApi();
  const backup = useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackupOperations, ACTIVE_REQUEST),
    queryFn: ({ signal }) => api.backup.listBackupOperations(ACTIVE_REQUEST, { signal }),
    ...polling,
  });
  const schema = useQuery({
    queryKey: rpcKey(SchemaControlService.method.listSchemaOperations, ACTIVE_REQUEST),
    queryFn: ({ signal }) => api.schema.listSchemaOperations(ACTIVE_REQUEST, { signal }),
    ...polling,
  });
  const merged = useMemo(
    () => mergeOperationPages([backup.data, schema.data], ACTIVE_REQUEST.pageSize * 2),
    [backup.data, schema.data],
  );
  return {
    operations: merged.operations,
    isPending: backup.isPending || schema.isPending,
    error: backup.error ?? schema.error,
    /** True once both services answered at least once (an absent id then means finished). */
    isSettled: backup.isFetched && schema.isFetched,
  };
}
