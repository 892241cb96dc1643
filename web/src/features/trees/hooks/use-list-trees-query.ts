import { TreeDataService } from '@store/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** Trees per page of the list. */
export const TREES_PAGE_SIZE = 100;

/**
 * The tenant's trees with entry and dead-letter counts (ListTrees annotates each page in one
 * query on the server), page after page through "Load more".
 */
export function useListTreesQuery() {
  const api = useApi();
  return useInfiniteQuery({
    queryKey: rpcKey(TreeDataService.method.listTrees, { pageSize: TREES_PAGE_SIZE }),
    queryFn: ({ pageParam, signal }) =>
      api.data.listTrees({ pageSize: TREES_PAGE_SIZE, pageToken: pageParam }, { signal }),
    initialPageParam: '',
    getNextPageParam: (page) => page.nextPageToken || undefined,
  });
}
