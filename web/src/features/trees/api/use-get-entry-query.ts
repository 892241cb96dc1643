import { TreeDataService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** One live entry (GetEntry); null when the key holds nothing live. Disabled for a null key. */
export function useGetEntryQuery(treeId: string, key: string | null) {
  const api = useApi();
  const request = { treeId, key: key ?? '' };
  return useQuery({
    queryKey: rpcKey(TreeDataService.method.getEntry, request),
    queryFn: async ({ signal }) => {
      const response = await api.data.getEntry(request, { signal });
      return response.found ? (response.entry ?? null) : null;
    },
    enabled: key !== null && key !== '',
  });
}
