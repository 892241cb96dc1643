import { BackupControlService } from '@store/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { catalogRequest, type CatalogFilters } from '../utils/catalog-filters';

/** One keyset page of the catalog for the view in the URL. */
export function useListBackupsQuery(filters: CatalogFilters) {
  const api = useApi();
  const request = catalogRequest(filters);
  return useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackups, request),
    queryFn: ({ signal }) => api.backup.listBackups(request, { signal }),
    // Paging keeps the old rows on screen until the next page arrives.
    placeholderData: keepPreviousData,
  });
}
