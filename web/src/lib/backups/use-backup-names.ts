import { BackupControlService } from '@store/contract';
import { useQueries, useQuery } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';
import { useApi } from '../services';

/**
 * The names of some backups, by id (chains, set members, a compare's two sides). Each is the
 * DescribeBackup answer its detail page reads too, so the cache serves both; an id whose backup
 * is gone or still loading has no name yet.
 */
export function useBackupNames(backupIds: readonly string[]): ReadonlyMap<string, string> {
  const api = useApi();
  return useQueries({
    queries: backupIds.map((backupId) => ({
      queryKey: rpcKey(BackupControlService.method.describeBackup, { backupId }),
      queryFn: ({ signal }: { signal: AbortSignal }) =>
        api.backup.describeBackup(backupId, { signal }),
      enabled: backupId !== '',
      staleTime: 60_000,
    })),
    combine: (results) =>
      new Map(
        results.flatMap((result, index) => {
          const name = result.data?.manifest?.name;
          return name ? [[backupIds[index] as string, name] as const] : [];
        }),
      ),
  });
}

/**
 * The tree a backup was taken of (from the DescribeBackup answer useBackupNames reads too), or
 * undefined while unknown: a restore that names no target tree restores into it.
 */
export function useBackupTree(backupId: string): string | undefined {
  const api = useApi();
  const query = useQuery({
    queryKey: rpcKey(BackupControlService.method.describeBackup, { backupId }),
    queryFn: ({ signal }) => api.backup.describeBackup(backupId, { signal }),
    enabled: backupId !== '',
    staleTime: 60_000,
  });
  return query.data?.manifest?.treeId || undefined;
}
