import { TreeDataService } from '@store/contract';
import { queryOptions } from '@tanstack/react-query';
import type { Api } from '../api/create-api';
import { rpcKey } from '../query-keys';

/**
 * The server's largest ListTrees page. Pickers, filters and the dashboard show names and counts,
 * so one page covers most tenants; all of them send this request to the letter and share one
 * cache entry.
 */
const FIRST_TREES_PAGE = { pageSize: 1_000 };

/** Query options of the tenant's first trees page; callers add their own select or polling. */
export function firstTreesPageQuery(api: Api) {
  return queryOptions({
    queryKey: rpcKey(TreeDataService.method.listTrees, FIRST_TREES_PAGE),
    queryFn: ({ signal }) => api.data.listTrees(FIRST_TREES_PAGE, { signal }),
  });
}
