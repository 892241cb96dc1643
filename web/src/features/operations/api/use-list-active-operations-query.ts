import { useMemo } from 'react';
import {
  ACTIVE_OPERATIONS_REQUEST,
  allOperationLists,
  useOperationLists,
} from '../../../lib/operations/use-operation-lists';
import { mergeOperationPages } from '../utils/merge-operations';

/**
 * The tenant's queued and running operations of every service (previews, diffs, dry-runs,
 * replays, verify stale backups and retention applies beside captures and restores), for the tray.
 */
export function useListActiveOperationsQuery() {
  const lists = useOperationLists(ACTIVE_OPERATIONS_REQUEST);
  const { backup, schema, backupInsight, schemaInsight, lifecycle } = lists;
  const all = allOperationLists(lists);
  const merged = useMemo(
    () =>
      mergeOperationPages(
        [backup.data, schema.data, backupInsight.data, schemaInsight.data, lifecycle.data],
        ACTIVE_OPERATIONS_REQUEST.pageSize * all.length,
      ),
    [backup.data, schema.data, backupInsight.data, schemaInsight.data, lifecycle.data, all.length],
  );
  return {
    operations: merged.operations,
    isPending: all.some((query) => query.isPending),
    error: all.find((query) => query.error)?.error ?? null,
    /** True once every service answered at least once (an absent id then means finished). */
    isSettled: all.every((query) => query.isFetched),
  };
}
