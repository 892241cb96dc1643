import { IdentityService } from '@store/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { auditRequestOf, type AuditFilters } from '../utils/audit-filters';

/**
 * The active tenant's audit records, newest first, page after page through "Load more" (keyset
 * tokens: a page stays correct while new records arrive). Not polled: the trail is read on demand.
 */
export function useListAuditRecordsQuery(filters: AuditFilters, enabled: boolean) {
  const api = useApi();
  const request = auditRequestOf(filters);
  return useInfiniteQuery({
    queryKey: rpcKey(IdentityService.method.listAuditRecords, request),
    queryFn: ({ pageParam, signal }) =>
      api.identity.listAuditRecords({ ...request, pageToken: pageParam }, { signal }),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextPageToken || undefined,
    enabled,
  });
}
