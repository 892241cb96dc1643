import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  BackupControlService,
  type BackupCatalogPage,
  type BackupCatalogRequestSchema,
} from '@store/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

export type ListBackupsRequest = MessageInitShape<typeof BackupCatalogRequestSchema>;

export interface ListBackupsQueryOptions<T> {
  /** What the caller reads of the page; the whole page by default. */
  select?: (page: BackupCatalogPage) => T;
  enabled?: boolean;
  /** Keep the rows on screen until another request's page arrives (paging, filters). */
  keepPreviousPage?: boolean;
  /** Poll at this interval (never while the tab is hidden); no polling by default. */
  refetchInterval?: number;
}

/**
 * One ListBackups page: the catalog, the pickers of a base or a backup to check, the dashboard's
 * unhealthy backups and size history all read it with their own request.
 */
export function useListBackupsQuery<T = BackupCatalogPage>(
  request: ListBackupsRequest,
  options: ListBackupsQueryOptions<T> = {},
) {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackups, request),
    queryFn: ({ signal }) => api.backup.listBackups(request, { signal }),
    select: options.select,
    enabled: options.enabled,
    placeholderData: options.keepPreviousPage ? keepPreviousData : undefined,
    refetchInterval: options.refetchInterval,
    refetchIntervalInBackground: false,
  });
}
