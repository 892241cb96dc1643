import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  SchemaInsightService,
  type DeadLetterSelectionSchema,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';
import { rpcKey } from '../../../lib/query-keys';
import { useInvalidateDeadLetterViews } from '../hooks/use-invalidate-dead-letter-views';

export type DiscardSelection = MessageInitShape<typeof DeadLetterSelectionSchema>;

/**
 * The pending letters a selection takes, as CountPendingDeadLetters answers: their count and the
 * fingerprint that names exactly which letters they are (what a discard confirms).
 */
export interface PendingLetterSet {
  count: bigint;
  fingerprint: string;
}

function usePendingSetQuery<T>(
  treeId: string,
  selection: DiscardSelection,
  options: { enabled: boolean; select: (set: PendingLetterSet) => T },
) {
  const client = useSchemaInsightClient();
  const input = { treeId, selection };
  return useQuery({
    queryKey: rpcKey(SchemaInsightService.method.countPendingDeadLetters, input),
    queryFn: async ({ signal }): Promise<PendingLetterSet> => {
      const { count, fingerprint } = await client.countPendingDeadLetters(input, { signal });
      return { count, fingerprint };
    },
    enabled: options.enabled,
    select: options.select,
  });
}

/** How many pending letters a selection takes (CountPendingDeadLetters). */
export function useCountPendingDeadLettersQuery(
  treeId: string,
  selection: DiscardSelection,
  options: { enabled: boolean },
) {
  return usePendingSetQuery(treeId, selection, { ...options, select: (set) => set.count });
}

/** The pending letters a selection takes, with the fingerprint a discard sends back. */
export function usePendingDeadLetterSetQuery(
  treeId: string,
  selection: DiscardSelection,
  options: { enabled: boolean },
) {
  return usePendingSetQuery(treeId, selection, { ...options, select: (set) => set });
}

/**
 * Discards the letters a selection takes, sending the count and fingerprint the confirm showed:
 * when the set changed meanwhile (even to another set of the same size) the server refuses
 * (FailedPrecondition) and the refreshed count shows what is pending now.
 */
export function useDiscardDeadLettersMutation(treeId: string) {
  const client = useSchemaInsightClient();
  const invalidate = useInvalidateDeadLetterViews();
  return useMutation({
    mutationFn: (discard: {
      selection: DiscardSelection;
      confirmed: PendingLetterSet;
      note: string;
    }) =>
      client.discardDeadLetters({
        treeId,
        selection: discard.selection,
        expectedCount: discard.confirmed.count,
        expectedFingerprint: discard.confirmed.fingerprint,
        ...(discard.note.trim() !== '' && { note: discard.note.trim() }),
      }),
    meta: { silent: true },
    onSettled: invalidate,
  });
}
