import { useMemo } from 'react';
import {
  ACTIVE_OPERATIONS_REQUEST,
  useOperationLists,
} from '../../../lib/operations/use-operation-lists';
import { mergeOperationPages } from '../api/merge-operations';

/** The tenant's queued and running operations of both services, for the tray. */
export function useListActiveOperationsQuery() {
  const { backup, schema } = useOperationLists(ACTIVE_OPERATIONS_REQUEST);
  const merged = useMemo(
    () => mergeOperationPages([backup.data, schema.data], ACTIVE_OPERATIONS_REQUEST.pageSize * 2),
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
