import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  SchemaInsightService,
  type DeadLetterFilterSchema,
  type SchemaInsightOperationStatus,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { SchemaControlService, TreeDataService } from '@store/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';
import { detailPollInterval } from '../../../lib/polling';
import { rpcKey, serviceKey } from '../../../lib/query-keys';

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

/** Starts a dry-run of a draft schema against the tree's entries. */
export function useStartPolicyDryRunMutation(treeId: string) {
  const client = useSchemaInsightClient();
  return useMutation({
    mutationFn: (jsonSchema: string) => client.startPolicyDryRun({ treeId, jsonSchema }),
    meta: { silent: true },
  });
}

/** Cancels a dry-run or a bulk replay. */
export function useCancelSchemaInsightMutation() {
  const client = useSchemaInsightClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operationId: string) => client.cancelSchemaInsightOperation({ operationId }),
    meta: { errorTitle: 'Cancelling failed' },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: serviceKey(SchemaInsightService) }),
  });
}

/** One page of the tree's dead letters with ids and replay history. */
export function useListDeadLetterRecordsQuery(
  treeId: string,
  request: {
    pageToken: string;
    includeReplayed: boolean;
    filter: MessageInitShape<typeof DeadLetterFilterSchema>;
  },
) {
  const client = useSchemaInsightClient();
  const input = {
    treeId,
    pageSize: 20,
    pageToken: request.pageToken,
    includeReplayed: request.includeReplayed,
    filter: request.filter,
  };
  return useQuery({
    queryKey: rpcKey(SchemaInsightService.method.listDeadLetters, input),
    queryFn: ({ signal }) => client.listDeadLetters(input, { signal }),
    placeholderData: keepPreviousData,
  });
}

/**
 * The queries a replay or a discard changes: letters, entries, counts, the tree list. Both
 * dead-letter sections read these queries, so they refresh together and show the same numbers.
 */
export function useInvalidateDeadLetterViews() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: serviceKey(SchemaInsightService) }),
        queryClient.invalidateQueries({ queryKey: serviceKey(SchemaControlService) }),
        queryClient.invalidateQueries({ queryKey: serviceKey(TreeDataService) }),
      ]),
    [queryClient],
  );
}

/** Replays one letter, with the edited value. */
export function useReplayDeadLetterMutation(treeId: string) {
  const client = useSchemaInsightClient();
  const invalidate = useInvalidateDeadLetterViews();
  return useMutation({
    mutationFn: (replay: { deadLetterId: bigint; valueJson: string }) =>
      client.replayDeadLetter({ treeId, ...replay }),
    meta: { silent: true },
    onSettled: invalidate,
  });
}

/** Starts a bulk replay of the tree's pending letters that the filter takes. */
export function useStartDeadLetterReplayMutation(treeId: string) {
  const client = useSchemaInsightClient();
  return useMutation({
    mutationFn: (filter: MessageInitShape<typeof DeadLetterFilterSchema>) =>
      client.startDeadLetterReplay({ treeId, filter }),
    meta: { errorTitle: 'The bulk replay could not start' },
  });
}

/** Refreshes letters, entries and counts once a bulk replay has finished. */
export function useRefreshWhenFinished(status: SchemaInsightOperationStatus | null | undefined) {
  const invalidate = useInvalidateDeadLetterViews();
  const finished = Boolean(status?.finishedAt);
  useEffect(() => {
    if (finished) void invalidate();
  }, [finished, invalidate]);
}
