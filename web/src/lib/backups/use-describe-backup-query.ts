import { BackupControlService } from '@store/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Api } from '../api/create-api';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

/**
 * DescribeBackup's query options: the one cache entry per backup that its detail page, the
 * health page and the names of chains and set members all read.
 */
export function describeBackupQuery(api: Api, backupId: string) {
  return queryOptions({
    queryKey: rpcKey(BackupControlService.method.describeBackup, { backupId }),
    queryFn: ({ signal }) => api.backup.describeBackup(backupId, { signal }),
    enabled: backupId !== '',
  });
}

/** A backup's manifest, chain, set members and dependants; null when it does not exist. */
export function useDescribeBackupQuery(backupId: string, options: { staleTime?: number } = {}) {
  const api = useApi();
  return useQuery({ ...describeBackupQuery(api, backupId), staleTime: options.staleTime });
}
