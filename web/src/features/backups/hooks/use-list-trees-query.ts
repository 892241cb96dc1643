import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { firstTreesPageQuery } from '../../../lib/trees/first-trees-page-query';

/** The tenant's tree names, for the tree pickers of the start forms and the filters. */
export function useListTreesQuery() {
  const api = useApi();
  return useQuery({
    ...firstTreesPageQuery(api),
    select: (response) => response.trees.map((tree) => tree.treeId),
  });
}
