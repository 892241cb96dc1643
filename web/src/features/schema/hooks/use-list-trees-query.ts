import { TreeDataService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** The server's largest ListTrees page: the picker shows names, so one page covers most tenants. */
const TREE_PAGE_SIZE = 1_000;

/** The tenant's trees for the tree picker (names, policy presence, dead-letter counts). */
export function useListTreesQuery() {
  const api = useApi();
  const request = { pageSize: TREE_PAGE_SIZE };
  return useQuery({
    queryKey: rpcKey(TreeDataService.method.listTrees, request),
    queryFn: ({ signal }) => api.data.listTrees(request, { signal }),
  });
}
