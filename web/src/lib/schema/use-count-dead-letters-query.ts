import { SchemaControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

/** How many pending dead letters the tree holds (CountDeadLetters): the dead-letter sections, the tree's header. */
export function useCountDeadLettersQuery(treeId: string) {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(SchemaControlService.method.countDeadLetters, { treeId }),
    queryFn: ({ signal }) => api.schema.countDeadLetters(treeId, { signal }),
  });
}
