import { TreeDataService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** The server's largest ListTrees page: enough trees for a picker. */
const TREE_PAGE = { pageSize: 1000 } as const;

/** The tenant's tree names, sorted, for the tree picker. */
export function useTreeNamesQuery() {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(TreeDataService.method.listTrees, TREE_PAGE),
    queryFn: ({ signal }) => api.data.listTrees(TREE_PAGE, { signal }),
    select: (page) => page.trees.map((tree) => tree.treeId).sort((a, b) => a.localeCompare(b)),
  });
}
