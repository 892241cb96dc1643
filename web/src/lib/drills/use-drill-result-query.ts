import { RestoreDrillService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useRestoreDrillClient } from '../api/drill-client';
import { rpcKey } from '../query-keys';

/** What a finished drill found (GetRestoreDrillResult); a result never changes once written. */
export function useDrillResultQuery(operationId: string, enabled: boolean) {
  const client = useRestoreDrillClient();
  return useQuery({
    queryKey: rpcKey(RestoreDrillService.method.getRestoreDrillResult, { operationId }),
    queryFn: ({ signal }) => client.getRestoreDrillResult({ operationId }, { signal }),
    enabled,
    staleTime: Infinity,
  });
}
