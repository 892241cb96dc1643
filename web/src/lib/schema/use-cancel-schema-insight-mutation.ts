import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSchemaInsightClient } from '../api/schema-insight-client';
import { serviceKey } from '../query-keys';

/** Cancels a schema-insight operation: a policy dry-run or a bulk replay of dead letters. */
export function useCancelSchemaInsightMutation() {
  const client = useSchemaInsightClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operationId: string) => client.cancelSchemaInsightOperation({ operationId }),
    meta: { errorTitle: 'Cancelling failed' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serviceKey(SchemaInsightService) }),
  });
}
