import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useSchemaInsightClient, type SchemaInsightClient } from '../api/schema-insight-client';
import { rpcKey } from '../query-keys';

/** What ValidateValue answers: the policy in force, whether a write would pass, its violations. */
export type ValueVerdict = Awaited<ReturnType<SchemaInsightClient['validateValue']>>;

function validateValueOptions(client: SchemaInsightClient, treeId: string, valueJson: string) {
  return {
    queryKey: rpcKey(SchemaInsightService.method.validateValue, { treeId, valueJson }),
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      client.validateValue({ treeId, valueJson }, { signal }),
  };
}

/**
 * Checks a value against the tree's policy in force: the server's own verdict (the write
 * guard's Ajv setup), so a form never disagrees with the write. Null `valueJson`: no check.
 */
export function useValidateValueQuery(treeId: string, valueJson: string | null) {
  const client = useSchemaInsightClient();
  return useQuery({
    ...validateValueOptions(client, treeId, valueJson ?? ''),
    enabled: valueJson !== null,
    placeholderData: keepPreviousData,
  });
}

/**
 * The verdict for exactly this value, from the cache when the live check already has it: what a
 * form asks just before it sends, so a debounced check that has not caught up cannot let a
 * refused value through.
 */
export function useValidateValueNow(treeId: string) {
  const client = useSchemaInsightClient();
  const queryClient = useQueryClient();
  return useCallback(
    (valueJson: string): Promise<ValueVerdict> =>
      queryClient.query({
        ...validateValueOptions(client, treeId, valueJson),
        staleTime: 5_000,
      }),
    [client, queryClient, treeId],
  );
}
