import { useInfiniteQuery } from '@connectrpc/connect-query';
import { TreeDataService } from '@store/contract';
import { useApi } from '../../../lib/services';

/** Trees per page of the list. */
const TREES_PAGE_SIZE = 100;

/**
 * The tenant's trees with entry and dead-letter counts (ListTrees annotates each page in one
 * query on the server), page after page through "Load more". Connect-query's infinite query
 * carries the page token from one response into the next request.
 */
export function useListTreesInfiniteQuery() {
  const api = useApi();
  return useInfiniteQuery(
    TreeDataService.method.listTrees,
    { pageSize: TREES_PAGE_SIZE, pageToken: '' },
    {
      transport: api.transport,
      pageParamKey: 'pageToken',
      getNextPageParam: (page) => page.nextPageToken || undefined,
    },
  );
}
