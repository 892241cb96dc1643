import { TreeDataService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** Trees a page while looking for one; the server caps larger pages. */
const LOOKUP_PAGE_SIZE = 1000;

/**
 * Whether the tenant has a tree of this name, as ListTrees lists them (there is no per-tree
 * RPC): asked only when the tree shows no entries, so a mistyped URL says the tree does not
 * exist instead of looking like an empty tree. Pages until found or the list ends.
 */
export function useTreeExistsQuery(treeId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: [...rpcKey(TreeDataService.method.listTrees, { pageSize: LOOKUP_PAGE_SIZE }), treeId],
    enabled: enabled && treeId !== '',
    queryFn: async ({ signal }) => {
      let pageToken = '';
      do {
        const page = await api.data.listTrees(
          { pageSize: LOOKUP_PAGE_SIZE, pageToken },
          { signal },
        );
        if (page.trees.some((tree) => tree.treeId === treeId)) return true;
        pageToken = page.nextPageToken;
      } while (pageToken !== '');
      return false;
    },
  });
}
