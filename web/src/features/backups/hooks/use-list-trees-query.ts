import { TreeDataService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** The server's largest ListTrees page: the pickers show names, one page covers most tenants. */
const TREE_PAGE_SIZE = 1_000;

/** The tenant's tree names, for the tree pickers of the start forms and the filters. */
export function useListTreesQuery() {
  const api = useApi();
  const request = { pageSize: TREE_PAGE_SIZE };
  return useQuery({
    queryKey: rpcKey(TreeDataService.method.listTrees, request),
    queryFn: ({ signal }) => api.data.listTrees(request, { signal }),
    select: (response) => response.trees.map((tree) => tree.treeId),
  });
}
