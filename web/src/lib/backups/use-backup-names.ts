import { useQueries } from '@tanstack/react-query';
import { useApi } from '../services';
import { describeBackupQuery, useDescribeBackupQuery } from './use-describe-backup-query';

/** A backup's name and tree never change; a minute spares refetches while lists re-render. */
const NAMES_STALE_MS = 60_000;

/**
 * The names of some backups, by id (chains, set members, a compare's two sides). Each is the
 * DescribeBackup answer its detail page reads too, so the cache serves both; an id whose backup
 * is gone or still loading has no name yet.
 */
export function useBackupNames(backupIds: readonly string[]): ReadonlyMap<string, string> {
  const api = useApi();
  return useQueries({
    queries: backupIds.map((backupId) => ({
      ...describeBackupQuery(api, backupId),
      staleTime: NAMES_STALE_MS,
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
  const query = useDescribeBackupQuery(backupId, { staleTime: NAMES_STALE_MS });
  return query.data?.manifest?.treeId || undefined;
}
