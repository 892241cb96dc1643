import { StoreRestoreMode, TreeDataService, type StoreRestoreResult } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serviceKey } from '../../../lib/query-keys';
import { useApi, useToast } from '../../../lib/services';

/** A revert: the restore's stored result, and the writes since it the admin agreed to discard. */
export interface RevertRequest {
  restore: StoreRestoreResult;
  /**
   * The revert preview's count of writes made since the restore, once acknowledged; absent when
   * the preview found none. The server refuses unless it is the count at the moment of the revert.
   */
  acknowledgedWrites?: bigint | undefined;
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
    mutationFn: ({ restore, acknowledgedWrites }: RevertRequest) =>
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
        ...(acknowledgedWrites !== undefined && {
          acknowledgedWritesSinceRestore: acknowledgedWrites,
        }),
      }),
    // The confirmation shows the refusal in place.
    meta: { silent: true },
    onSuccess: (_, { restore }) => {
      toast({ tone: 'success', title: `Reverted the restore of ${restore.targetTreeId}` });
      // Tree pages show the swapped-back contents.
      void queryClient.invalidateQueries({ queryKey: serviceKey(TreeDataService) });
    },
  });
}
