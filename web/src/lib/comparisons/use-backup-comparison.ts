import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  BackupInsightService,
  type BackupDifferenceChange,
  type BackupDiffRequestSchema,
  type RestorePreviewRequestSchema,
  type RevertPreviewRequestSchema,
} from '@store/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { detailPollInterval } from '../polling';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

/** Starts a restore preview (BackupInsightService; viewer). */
export function useStartRestorePreviewMutation() {
  const api = useApi();
  return useMutation({
    mutationFn: (request: MessageInitShape<typeof RestorePreviewRequestSchema>) =>
      api.backupInsight.startRestorePreview(request),
    meta: { silent: true },
  });
}

/** Starts a preview of reverting an in-place restore (viewer). */
export function useStartRevertPreviewMutation() {
  const api = useApi();
  return useMutation({
    mutationFn: (request: MessageInitShape<typeof RevertPreviewRequestSchema>) =>
      api.backupInsight.startRevertPreview(request),
    meta: { silent: true },
  });
}

/** Starts a diff of two backups of one tree (viewer). */
export function useStartBackupDiffMutation() {
  const api = useApi();
  return useMutation({
    mutationFn: (request: MessageInitShape<typeof BackupDiffRequestSchema>) =>
      api.backupInsight.startBackupDiff(request),
    meta: { silent: true },
  });
}

/** A preview's or diff's operation, polled FAST until terminal; null when unknown. */
export function useInsightOperationQuery(operationId: string) {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(BackupInsightService.method.getBackupInsightOperationStatus, { operationId }),
    queryFn: async ({ signal }) =>
      (await api.backupInsight.getBackupInsightOperationStatus({ operationId }, { signal }))
        .status ?? null,
    enabled: operationId !== '',
    refetchInterval: (query) => detailPollInterval(query.state.data),
    refetchIntervalInBackground: false,
  });
}

/** Cancels a running preview or diff and refreshes its status. */
export function useCancelInsightOperationMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (operationId: string) =>
      api.backupInsight.cancelBackupInsightOperation({ operationId }),
    onSuccess: (_, operationId) =>
      queryClient.invalidateQueries({
        queryKey: rpcKey(BackupInsightService.method.getBackupInsightOperationStatus, {
          operationId,
        }),
      }),
  });
}

/**
 * The report of a succeeded comparison with the tree's state now. Never cached as fresh: a
 * restore dialog asks again right before it restores, to warn when the tree moved on.
 */
export function useBackupComparisonQuery(operationId: string, succeeded: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(BackupInsightService.method.getBackupComparison, { operationId }),
    queryFn: ({ signal }) => api.backupInsight.getBackupComparison({ operationId }, { signal }),
    enabled: operationId !== '' && succeeded,
    staleTime: 0,
  });
}

/**
 * Keeps a comparison's stored differences from expiring, or releases them (admin), and refreshes
 * its report (docs/security.md, "Preview storage").
 */
export function useKeepBackupComparisonMutation(operationId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (release: boolean) =>
      api.backupInsight.keepBackupComparison({ operationId, release }),
    onSuccess: (response) =>
      queryClient.setQueryData(
        rpcKey(BackupInsightService.method.getBackupComparison, { operationId }),
        response,
      ),
  });
}

/** One page of a succeeded comparison's differences, optionally of some changes only. */
export function useBackupDifferencesQuery(
  operationId: string,
  pageToken: string,
  changes: readonly BackupDifferenceChange[] = [],
  pageSize = 20,
) {
  const api = useApi();
  const input = { operationId, pageToken, pageSize, changes: [...changes] };
  return useQuery({
    queryKey: rpcKey(BackupInsightService.method.listBackupDifferences, input),
    queryFn: ({ signal }) => api.backupInsight.listBackupDifferences(input, { signal }),
    enabled: operationId !== '',
    placeholderData: keepPreviousData,
  });
}

/** Whether the tree changed since a preview read it: asked again right before a restore. */
export function useCheckPreviewFreshness() {
  const api = useApi();
  const queryClient = useQueryClient();
  return (operationId: string) =>
    queryClient.query({
      queryKey: rpcKey(BackupInsightService.method.getBackupComparison, { operationId }),
      queryFn: ({ signal }) => api.backupInsight.getBackupComparison({ operationId }, { signal }),
      staleTime: 0,
    });
}
