import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { firstTreesPageQuery } from '../../../lib/trees/first-trees-page-query';

/** The tenant's tree names, sorted, for the tree picker. */
export function useTreeNamesQuery() {
  const api = useApi();
  return useQuery({
    ...firstTreesPageQuery(api),
    select: (page) => page.trees.map((tree) => tree.treeId).sort((a, b) => a.localeCompare(b)),
  });
}
