import { SchemaControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

/** GetPolicy's query key: the schema page's mutations invalidate it. */
export function policyKey(treeId: string) {
  return rpcKey(SchemaControlService.method.getPolicy, { treeId });
}

/** The tree's policy; null when it has none (the schema page, the tree's header). */
export function useGetPolicyQuery(treeId: string) {
  const api = useApi();
  return useQuery({
    queryKey: policyKey(treeId),
    queryFn: ({ signal }) => api.schema.getPolicy(treeId, { signal }),
  });
}
