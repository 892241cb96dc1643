import { BackupControlService } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serviceKey } from '../../../lib/query-keys';
import { useApi, useToast } from '../../../lib/services';

/**
 * Deletes a backup (and with cascade its dependants). A refusal (FailedPrecondition while an
 * incremental depends on it) is left to the dialog, which shows it and offers cascade.
 */
export function useDeleteBackupMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ backupId, cascade }: { backupId: string; cascade: boolean }) =>
      api.backup.deleteBackup(backupId, { cascade }),
    meta: { silent: true },
    onSuccess: (deleted, { backupId }) => {
      toast(
        deleted
          ? { tone: 'success', title: `Deleted backup ${backupId}` }
          : { tone: 'info', title: `Backup ${backupId} was already gone` },
      );
      void queryClient.invalidateQueries({ queryKey: serviceKey(BackupControlService) });
    },
  });
}
