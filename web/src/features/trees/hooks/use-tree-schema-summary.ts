import { SchemaControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** The tree's schema policy (null: none) and dead-letter count, for the tree's header. */
export function useTreeSchemaSummary(treeId: string) {
  const api = useApi();
  const policy = useQuery({
    queryKey: rpcKey(SchemaControlService.method.getPolicy, { treeId }),
    queryFn: ({ signal }) => api.schema.getPolicy(treeId, { signal }),
  });
  const deadLetters = useQuery({
    queryKey: rpcKey(SchemaControlService.method.countDeadLetters, { treeId }),
    queryFn: ({ signal }) => api.schema.countDeadLetters(treeId, { signal }),
  });
  return { policy, deadLetters };
}
