import {
  SchemaInsightService,
  type SchemaInsightOperationStatus,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useQuery } from '@tanstack/react-query';
import { useSchemaInsightClient } from '../api/schema-insight-client';
import { detailPollInterval } from '../polling';
import { rpcKey } from '../query-keys';

/** One schema-insight operation, polled every second until it is terminal. */
export function useSchemaInsightOperationQuery(operationId: string | undefined) {
  const client = useSchemaInsightClient();
  return useQuery({
    queryKey: rpcKey(SchemaInsightService.method.getSchemaInsightOperationStatus, {
      operationId: operationId ?? '',
    }),
    queryFn: async ({ signal }): Promise<SchemaInsightOperationStatus | null> => {
      const answer = await client.getSchemaInsightOperationStatus(
        { operationId: operationId ?? '' },
        { signal },
      );
      return answer.found && answer.status ? answer.status : null;
    },
    enabled: !!operationId,
    refetchInterval: (query) => detailPollInterval(query.state.data),
    refetchIntervalInBackground: false,
  });
}
