import { useQuery } from '@tanstack/react-query';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { useApi } from '../../../lib/services';
import { firstTreesPageQuery } from '../../../lib/trees/first-trees-page-query';

/** The tenant's trees with their dead-letter counts: one ListTrees page. */
export function useTreesOverview() {
  const api = useApi();
  return useQuery({
    ...firstTreesPageQuery(api),
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
