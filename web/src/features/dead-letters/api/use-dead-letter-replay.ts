import type { MessageInitShape } from '@bufbuild/protobuf';
import type { DeadLetterFilterSchema } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useMutation } from '@tanstack/react-query';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';
import { useInvalidateDeadLetterViews } from '../hooks/use-invalidate-dead-letter-views';

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
