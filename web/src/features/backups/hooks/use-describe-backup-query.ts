import { BackupControlService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** A backup's manifest, chain, set members and dependants; null when it does not exist. */
export function useDescribeBackupQuery(backupId: string) {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(BackupControlService.method.describeBackup, { backupId }),
    queryFn: ({ signal }) => api.backup.describeBackup(backupId, { signal }),
    enabled: backupId !== '',
  });
}
