import { BackupLifecycleService, type BackupProtection } from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLifecycleClient } from '../../../lib/api/lifecycle-client';
import { rpcKey, serviceKey } from '../../../lib/query-keys';
import { unlessUnimplemented } from '../../../lib/operations/schema-insight-operations';

/**
 * The protections of these backups, by backup id: one ListBackupProtections call for a whole
 * catalog page (at most 1000 ids). A server without the lifecycle service protects nothing.
 */
export function useBackupProtectionsQuery(backupIds: readonly string[]) {
  const client = useLifecycleClient();
  const input = { backupIds: [...backupIds] };
  return useQuery({
    queryKey: rpcKey(BackupLifecycleService.method.listBackupProtections, input),
    queryFn: async ({ signal }): Promise<ReadonlyMap<string, BackupProtection>> => {
      const answer = await unlessUnimplemented(
        client.listBackupProtections(input, { signal }),
        null,
      );
      return new Map((answer?.protections ?? []).map((p) => [p.backupId, p]));
    },
    enabled: backupIds.length > 0,
  });
}

function useInvalidateProtections() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: serviceKey(BackupLifecycleService) });
}

/** ProtectBackup (operator): a reason is required. */
export function useProtectBackupMutation() {
  const client = useLifecycleClient();
  const invalidate = useInvalidateProtections();
  return useMutation({
    mutationFn: (input: { backupId: string; reason: string }) => client.protectBackup(input),
    meta: { silent: true },
    onSuccess: () => invalidate(),
  });
}

/** UnprotectBackup (admin): why it is lifted goes to the audit record. */
export function useUnprotectBackupMutation() {
  const client = useLifecycleClient();
  const invalidate = useInvalidateProtections();
  return useMutation({
    mutationFn: (input: { backupId: string; reason: string }) => client.unprotectBackup(input),
    meta: { silent: true },
    onSuccess: () => invalidate(),
  });
}
