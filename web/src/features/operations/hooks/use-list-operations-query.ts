import {
  BackupControlService,
  SchemaControlService,
  type StoreOperationPage,
} from '@store/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { listPollInterval } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
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
 * The tenant's operations from both services, merged newest first. One query per service, each
 * one list request per tick whatever the number of rows; each polls FAST while it shows a queued
 * or running operation and SLOW otherwise, and not while the tab is hidden (STYLE.md, polling).
 */
export function useListOperationsQuery(filters: OperationFilters): OperationsList {
  const api = useApi();
  const request = listRequestOf(filters);
  const families = familiesOf(filters);
  const polling = {
    refetchInterval: (query: { state: { data: StoreOperationPage | undefined } }) =>
      listPollInterval(query.state.data?.operations),
    refetchIntervalInBackground: false,
    // "Load more" changes the page size: keep the rows on screen while the bigger page loads.
    placeholderData: keepPreviousData,
  } as const;

  const backup = useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackupOperations, request),
    queryFn: ({ signal }) => api.backup.listBackupOperations(request, { signal }),
    enabled: families.backup,
    ...polling,
  });
  const schema = useQuery({
    queryKey: rpcKey(SchemaControlService.method.listSchemaOperations, request),
    queryFn: ({ signal }) => api.schema.listSchemaOperations(request, { signal }),
    enabled: families.schema,
    ...polling,
  });

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
