import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  SchemaInsightService,
  type DeadLetterSelectionSchema,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';
import { rpcKey } from '../../../lib/query-keys';
import { useInvalidateDeadLetterViews } from './use-schema-insight';

export type DiscardSelection = MessageInitShape<typeof DeadLetterSelectionSchema>;

/** How many pending letters a selection takes (CountPendingDeadLetters): what a discard confirms. */
export function useCountPendingDeadLettersQuery(
  treeId: string,
  selection: DiscardSelection,
  options: { enabled: boolean },
) {
  const client = useSchemaInsightClient();
  const input = { treeId, selection };
  return useQuery({
    queryKey: rpcKey(SchemaInsightService.method.countPendingDeadLetters, input),
    queryFn: async ({ signal }) => (await client.countPendingDeadLetters(input, { signal })).count,
    enabled: options.enabled,
  });
}

/**
 * Discards the letters a selection takes, sending the count the confirm showed: when the set
 * changed meanwhile the server refuses (FailedPrecondition) and the refreshed counts show why.
 */
export function useDiscardDeadLettersMutation(treeId: string) {
  const client = useSchemaInsightClient();
  const invalidate = useInvalidateDeadLetterViews();
  return useMutation({
    mutationFn: (discard: { selection: DiscardSelection; expectedCount: bigint; note: string }) =>
      client.discardDeadLetters({
        treeId,
        selection: discard.selection,
        expectedCount: discard.expectedCount,
        ...(discard.note.trim() !== '' && { note: discard.note.trim() }),
      }),
    meta: { silent: true },
    onSettled: invalidate,
  });
}
