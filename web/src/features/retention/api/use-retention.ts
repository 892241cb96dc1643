import {
  BackupControlService,
  BackupLifecycleService,
  StoreOperationState,
  type RetentionPreview,
} from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLifecycleClient } from '../../../lib/api/lifecycle-client';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { rpcKey, serviceKey } from '../../../lib/query-keys';
import type { WireRules } from '../utils/rules-draft';

/** A retention scope: a tree and a key prefix ('' for the whole tree). */
export interface RetentionScope {
  treeId: string;
  keyPrefix: string;
}

const selector = ({ treeId, keyPrefix }: RetentionScope) => ({
  treeId,
  ...(keyPrefix !== '' && { keyPrefix }),
});

/** The scope's stored rules (GetRetentionRules). */
export function useRetentionRulesQuery(scope: RetentionScope) {
  const client = useLifecycleClient();
  const input = { scope: selector(scope) };
  return useQuery({
    queryKey: rpcKey(BackupLifecycleService.method.getRetentionRules, input),
    queryFn: ({ signal }) => client.getRetentionRules(input, { signal }),
  });
}

/** How many entries the console asks a preview for: the lists show at most this many rows. */
export const PREVIEW_PAGE_SIZE = 200;

/**
 * PreviewRetention of the stored rules, or of `draftRules` (the form before it is saved). The
 * previous answer stays on screen while the next one loads, so the list does not flicker.
 */
export function useRetentionPreviewQuery(
  scope: RetentionScope,
  draftRules: WireRules | undefined,
  options: { enabled: boolean },
) {
  const client = useLifecycleClient();
  const input = {
    scope: selector(scope),
    pageSize: PREVIEW_PAGE_SIZE,
    ...(draftRules && { draftRules }),
  };
  return useQuery({
    queryKey: rpcKey(BackupLifecycleService.method.previewRetention, input),
    queryFn: ({ signal }): Promise<RetentionPreview> => client.previewRetention(input, { signal }),
    enabled: options.enabled,
    placeholderData: (previous) => previous,
  });
}

/** Everything the lifecycle service answers is stale after a change of rules or catalog. */
function useInvalidateLifecycle() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: serviceKey(BackupLifecycleService) });
}

/** SetRetentionRules (admin). */
export function useSetRetentionRulesMutation(scope: RetentionScope) {
  const client = useLifecycleClient();
  const invalidate = useInvalidateLifecycle();
  return useMutation({
    mutationFn: (input: { rules: WireRules; applyAfterSchedule: boolean }) =>
      client.setRetentionRules({ scope: selector(scope), ...input }),
    // The form shows a refusal in words itself.
    meta: { silent: true },
    onSuccess: () => invalidate(),
  });
}

/**
 * StartRetentionApply (operator) of the preview with this fingerprint; answers the operation id.
 * The apply joins the tray, which follows it to its end and says what it deleted.
 */
export function useStartRetentionApplyMutation(scope: RetentionScope) {
  const client = useLifecycleClient();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: (expectedFingerprint: string) =>
      client.startRetentionApply({ scope: selector(scope), expectedFingerprint }),
    // A refusal (a stale preview) is shown beside the button with the offer of a new preview.
    meta: { silent: true },
    onSuccess: (handle) => track(handle),
  });
}

const FINISHED = new Set([
  StoreOperationState.SUCCEEDED,
  StoreOperationState.FAILED,
  StoreOperationState.CANCELLED,
]);

/**
 * A running apply, polled every half second until it ends; then, once, the catalog and every
 * lifecycle view refresh (what it deleted is gone). Its status carries its result.
 */
export function useLifecycleOperationQuery(operationId: string | null) {
  const client = useLifecycleClient();
  const queryClient = useQueryClient();
  const input = { operationId: operationId ?? '' };
  const status = useQuery({
    queryKey: rpcKey(BackupLifecycleService.method.getLifecycleOperationStatus, input),
    queryFn: async ({ signal }) =>
      (await client.getLifecycleOperationStatus(input, { signal })).status ?? null,
    enabled: operationId !== null,
    refetchInterval: (query) =>
      query.state.data && FINISHED.has(query.state.data.state) ? false : 500,
  });
  const finished = status.data ? FINISHED.has(status.data.state) : false;
  const refreshed = useRef<string | null>(null);
  useEffect(() => {
    if (!finished || operationId === null || refreshed.current === operationId) return;
    refreshed.current = operationId;
    void queryClient.invalidateQueries({ queryKey: serviceKey(BackupControlService) });
    for (const method of [
      BackupLifecycleService.method.previewRetention,
      BackupLifecycleService.method.listBackupProtections,
    ]) {
      void queryClient.invalidateQueries({
        predicate: (query) => JSON.stringify(query.queryKey).includes(`"${method.name}"`),
      });
    }
  }, [finished, operationId, queryClient]);
  return status;
}

export function isFinished(state: StoreOperationState): boolean {
  return FINISHED.has(state);
}
