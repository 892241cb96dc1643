import { DrillProofService, type BackupProof } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useDrillProofClient } from '../api/drill-client';
import { unlessUnimplemented } from '../operations/schema-insight-operations';
import { SLOW_POLL_MS } from '../polling';
import { rpcKey } from '../query-keys';

/** The proofs of a page of backups (one GetBackupProofs call per page), by backup id. */
export function useBackupProofsQuery(backupIds: readonly string[]) {
  const client = useDrillProofClient();
  const request = { backupIds: [...backupIds] };
  return useQuery({
    queryKey: rpcKey(DrillProofService.method.getBackupProofs, request),
    queryFn: async ({ signal }): Promise<Map<string, BackupProof>> => {
      const response = await unlessUnimplemented(client.getBackupProofs(request, { signal }), null);
      return new Map((response?.backups ?? []).map((b) => [b.backupId, b]));
    },
    enabled: backupIds.length > 0,
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
