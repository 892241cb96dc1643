import { useMemo } from 'react';
import { useOperationLists } from '../../../lib/operations/use-operation-lists';
import { listPollInterval } from '../../../lib/polling';
import { mergeOperationPages, type MergedOperations } from '../api/merge-operations';
import { familiesOf, listRequestOf, type OperationFilters } from '../api/operation-filters';

export interface OperationsList extends MergedOperations {
  isPending: boolean;
  /** The first failure of either service. */
  error: Error | null;
  refetch: () => void;
  /** The interval the list is polling at now (for the "updating every …" hint). */
  pollMs: number;
}

/**
 * The tenant's operations from both services, merged newest first (polling: useOperationLists).
 */
export function useListOperationsQuery(filters: OperationFilters): OperationsList {
  const request = listRequestOf(filters);
  const families = familiesOf(filters);
  // "Load more" changes the page size: keep the rows on screen while the bigger page loads.
  const { backup, schema } = useOperationLists(request, { families, keepPreviousPage: true });

  const merged = useMemo(
    () =>
      mergeOperationPages(
        [families.backup ? backup.data : undefined, families.schema ? schema.data : undefined],
        filters.limit,
      ),
    [backup.data, schema.data, families.backup, families.schema, filters.limit],
  );

  return {
    ...merged,
    isPending: (families.backup && backup.isPending) || (families.schema && schema.isPending),
    error: backup.error ?? schema.error,
    refetch: () => {
      if (families.backup) void backup.refetch();
      if (families.schema) void schema.refetch();
    },
    pollMs: listPollInterval(merged.operations),
  };
}
