import type { SchemaInsightOperationStatus } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { SchemaControlService, TreeDataService } from '@store/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { serviceKey } from '../../../lib/query-keys';

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

/** Refreshes letters, entries and counts once a bulk replay has finished. */
export function useRefreshWhenFinished(status: SchemaInsightOperationStatus | null | undefined) {
  const invalidate = useInvalidateDeadLetterViews();
  const finished = Boolean(status?.finishedAt);
  useEffect(() => {
    if (finished) void invalidate();
  }, [finished, invalidate]);
}
