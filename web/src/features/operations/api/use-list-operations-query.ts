import { useMemo } from 'react';
import { allOperationLists, useOperationLists } from '../../../lib/operations/use-operation-lists';
import { listPollInterval } from '../../../lib/polling';
import { mergeOperationPages, type MergedOperations } from '../utils/merge-operations';
import { familiesOf, listRequestOf, type OperationFilters } from '../utils/operation-filters';

export interface OperationsList extends MergedOperations {
  isPending: boolean;
  /** The first failure of any service. */
  error: Error | null;
  refetch: () => void;
  /** The interval the list is polling at now (for the "updating every …" hint). */
  pollMs: number;
}

/**
 * The tenant's operations from every service that tracks them (backup, schema, both insight
 * services, lifecycle and restore drills), merged newest first (polling: useOperationLists).
 */
export function useListOperationsQuery(filters: OperationFilters): OperationsList {
  const request = listRequestOf(filters);
  const families = familiesOf(filters);
  // "Load more" changes the page size: keep the rows on screen while the bigger page loads.
  const lists = useOperationLists(request, { families, keepPreviousPage: true });
  const { backup, schema, backupInsight, schemaInsight, lifecycle, drill } = lists;
  const shown = allOperationLists(lists).filter((query) => query.isEnabled);

  const [backupPage, schemaPage, backupInsightPage, schemaInsightPage, lifecyclePage, drillPage] = [
    backup,
    schema,
    backupInsight,
    schemaInsight,
    lifecycle,
    drill,
  ].map((query) => (query.isEnabled ? query.data : undefined));
  const merged = useMemo(
    () =>
      mergeOperationPages(
        [backupPage, schemaPage, backupInsightPage, schemaInsightPage, lifecyclePage, drillPage],
        filters.limit,
      ),
    [
      backupPage,
      schemaPage,
      backupInsightPage,
      schemaInsightPage,
      lifecyclePage,
      drillPage,
      filters.limit,
    ],
  );

  return {
    ...merged,
    isPending: shown.some((query) => query.isPending),
    error: shown.find((query) => query.error)?.error ?? null,
    refetch: () => shown.forEach((query) => void query.refetch()),
    pollMs: listPollInterval(merged.operations),
  };
}
