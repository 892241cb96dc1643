import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../lib/services';
import { firstTreesPageQuery } from '../../../lib/trees/first-trees-page-query';

/** The tenant's trees for the tree picker (names, policy presence, dead-letter counts). */
export function useListTreesQuery() {
  const api = useApi();
  return useQuery(firstTreesPageQuery(api));
}
