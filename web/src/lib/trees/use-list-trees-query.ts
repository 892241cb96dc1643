import { TreeDataService, type ListTreesResponse } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

/**
 * The server's largest ListTrees page. Pickers, filters and the dashboard show names and counts,
 * so one page covers most tenants; all of them send this request to the letter and share one
 * cache entry.
 */
const FIRST_TREES_PAGE = { pageSize: 1_000 };

export interface ListTreesQueryOptions<T> {
  /** What the caller reads of the page (names, sorted names); the whole page by default. */
  select?: (page: ListTreesResponse) => T;
  /** Poll at this interval (never while the tab is hidden); no polling by default. */
  refetchInterval?: number;
}

/**
 * The tenant's first trees page (names, entry counts, policy presence, dead-letter counts): the
 * one ListTrees query of the pickers, filters and the dashboard. The trees page pages through
 * every tree instead (the trees feature's `useListTreesInfiniteQuery`).
 */
export function useListTreesQuery<T = ListTreesResponse>(options: ListTreesQueryOptions<T> = {}) {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(TreeDataService.method.listTrees, FIRST_TREES_PAGE),
    queryFn: ({ signal }) => api.data.listTrees(FIRST_TREES_PAGE, { signal }),
    select: options.select,
    refetchInterval: options.refetchInterval,
    refetchIntervalInBackground: false,
  });
}

/** The page's tree names, in the server's order. */
export function treeIds(page: ListTreesResponse): string[] {
  return page.trees.map((tree) => tree.treeId);
}

/** The page's tree names, sorted for a picker. */
export function sortedTreeIds(page: ListTreesResponse): string[] {
  return treeIds(page).sort((a, b) => a.localeCompare(b));
}
