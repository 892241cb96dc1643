import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { BackupControlService, BackupHealthStatus, type BackupManifest } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { HISTORY_WINDOW_MS, stableCutoff } from '../utils/attention';

/** Unhealthy backups shown per status; the catalog's health filter lists the rest. */
export const UNHEALTHY_PAGE_SIZE = 50;
const HISTORY_PAGE_SIZE = 1_000;

/** Backups whose last health report says CORRUPT or MISSING: the catalog's health filter, twice. */
export function useListUnhealthyBackupsQuery() {
  const api = useApi();
  const corruptRequest = {
    healthStatus: BackupHealthStatus.CORRUPT,
    pageSize: UNHEALTHY_PAGE_SIZE,
  };
  const missingRequest = {
    healthStatus: BackupHealthStatus.MISSING,
    pageSize: UNHEALTHY_PAGE_SIZE,
  };
  const corrupt = useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackups, corruptRequest),
    queryFn: ({ signal }) => api.backup.listBackups(corruptRequest, { signal }),
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
  const missing = useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackups, missingRequest),
    queryFn: ({ signal }) => api.backup.listBackups(missingRequest, { signal }),
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
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
  const api = useApi();
  const request = {
    createdAfter: timestampFromMs(stableCutoff(now, HISTORY_WINDOW_MS, 60 * 60 * 1000)),
    pageSize: HISTORY_PAGE_SIZE,
  };
  return useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackups, request),
    queryFn: ({ signal }) => api.backup.listBackups(request, { signal }),
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
