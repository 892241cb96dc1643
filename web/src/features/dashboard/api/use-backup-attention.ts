import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { BackupHealthStatus, type BackupManifest } from '@store/contract';
import { useMemo } from 'react';
import { useListBackupsQuery } from '../../../lib/backups/use-list-backups-query';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { HISTORY_WINDOW_MS, stableCutoff } from '../utils/attention';

/** Unhealthy backups shown per status; the catalog's health filter lists the rest. */
export const UNHEALTHY_PAGE_SIZE = 50;
const HISTORY_PAGE_SIZE = 1_000;

/** Backups whose last health report says CORRUPT or MISSING: the catalog's health filter, twice. */
export function useListUnhealthyBackupsQuery() {
  const corruptRequest = {
    healthStatus: BackupHealthStatus.CORRUPT,
    pageSize: UNHEALTHY_PAGE_SIZE,
  };
  const missingRequest = {
    healthStatus: BackupHealthStatus.MISSING,
    pageSize: UNHEALTHY_PAGE_SIZE,
  };
  const corrupt = useListBackupsQuery(corruptRequest, { refetchInterval: SLOW_POLL_MS });
  const missing = useListBackupsQuery(missingRequest, { refetchInterval: SLOW_POLL_MS });
  const backups = useMemo<BackupManifest[]>(
    () => [...(corrupt.data?.backups ?? []), ...(missing.data?.backups ?? [])],
    [corrupt.data, missing.data],
  );
  return {
    backups,
    truncated: !!corrupt.data?.nextPageToken || !!missing.data?.nextPageToken,
    isPending: corrupt.isPending || missing.isPending,
    error: corrupt.error ?? missing.error,
    refetch: () => {
      void corrupt.refetch();
      void missing.refetch();
    },
  };
}

/** The catalog's last 30 days in one page, for the backup-size chart. */
export function useListBackupHistoryQuery(now: number) {
  const request = {
    createdAfter: timestampFromMs(stableCutoff(now, HISTORY_WINDOW_MS, 60 * 60 * 1000)),
    pageSize: HISTORY_PAGE_SIZE,
  };
  return useListBackupsQuery(request, { refetchInterval: SLOW_POLL_MS });
}
