import { SchemaControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { detailPollInterval } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** One schema operation started from this page, polled every second until it is terminal. */
export function useGetSchemaOperationQuery(operationId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(SchemaControlService.method.getSchemaOperationStatus, {
      operationId: operationId ?? '',
    }),
    queryFn: ({ signal }) => api.schema.getSchemaOperationStatus(operationId ?? '', { signal }),
    enabled: !!operationId,
    refetchInterval: (query) => detailPollInterval(query.state.data),
    refetchIntervalInBackground: false,
  });
}
