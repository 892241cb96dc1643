import { StoreRestoreMode, TreeDataService, type StoreRestoreResult } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshOperationLists } from '../../../lib/operations/operation-keys';
import { serviceKey } from '../../../lib/query-keys';
import { useApi, useToast } from '../../../lib/services';
import { operationKey } from './use-get-operation-query';

/** What the revert preview showed: the writes since the restore and the tree's sequence mark. */
export interface RevertAcknowledgment {
  writes: bigint;
  throughSequence: bigint;
}

/** A revert: the restore's stored result, and the preview state the admin agreed to discard. */
export interface RevertRequest {
  restore: StoreRestoreResult;
  /**
   * From the revert preview the admin saw (absent without one). The server refuses unless the
   * count is still the count and nothing was written since (the mark did not move).
   */
  acknowledgment?: RevertAcknowledgment | undefined;
}

/**
 * RevertRestore with the restore's stored result. The server trusts only the operation id and
 * refuses a response that differs from what it stored, so every field is sent back as it came
 * (the dead-letter counters are not part of RestoreResponse).
 */
export function useRevertRestoreMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ restore, acknowledgment }: RevertRequest) =>
      api.backup.revertRestore({
        backupId: restore.backupId,
        targetTreeId: restore.targetTreeId,
        mode:
          restore.mode === StoreRestoreMode.UNSPECIFIED ? StoreRestoreMode.IN_PLACE : restore.mode,
        operationId: restore.operationId,
        manifestChain: [...restore.manifestChain],
        entriesApplied: restore.entriesApplied,
        ...(restore.shadowPhysicalTreeId !== undefined && {
          shadowPhysicalTreeId: restore.shadowPhysicalTreeId,
        }),
        ...(restore.previousPhysicalTreeId !== undefined && {
          previousPhysicalTreeId: restore.previousPhysicalTreeId,
        }),
        ...(acknowledgment && {
          acknowledgedWritesSinceRestore: acknowledgment.writes,
          acknowledgedThroughSequence: acknowledgment.throughSequence,
        }),
      }),
    // The confirmation shows the refusal in place.
    meta: { silent: true },
    onSuccess: (_, { restore }) => {
      toast({ tone: 'success', title: `Reverted the restore of ${restore.targetTreeId}` });
      // Tree pages show the swapped-back contents; the restore's status and the lists say who
      // reverted it and when.
      void queryClient.invalidateQueries({ queryKey: serviceKey(TreeDataService) });
      void queryClient.invalidateQueries({ queryKey: operationKey(restore.operationId) });
      void refreshOperationLists(queryClient);
    },
  });
}
