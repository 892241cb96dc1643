import {
  BackupControlService,
  BackupInsightService,
  durationFromMs,
  StoreOperationKind,
  type BackupManifest,
} from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import { FAST_POLL_MS, SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey, serviceKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';

const FLEET_PAGE_SIZE = 1_000;
/** The table reads at most this many pages (10 000 backups) and says when there are more. */
const MAX_FLEET_PAGES = 10;

export interface FleetBackups {
  backups: BackupManifest[];
  /** More backups exist than the table read. */
  truncated: boolean;
}

/** Every backup of the tenant with its last verdict, paged through ListBackups at its largest page. */
export function useFleetBackupsQuery() {
  const api = useApi();
  return useQuery({
    queryKey: [...rpcKey(BackupControlService.method.listBackups, {}), 'fleet'],
    queryFn: async ({ signal }): Promise<FleetBackups> => {
      const backups: BackupManifest[] = [];
      let pageToken = '';
      for (let page = 0; page < MAX_FLEET_PAGES; page++) {
        const result = await api.backup.listBackups(
          { pageSize: FLEET_PAGE_SIZE, pageToken },
          { signal },
        );
        backups.push(...result.backups);
        pageToken = result.nextPageToken;
        if (!pageToken) return { backups, truncated: false };
      }
      return { backups, truncated: true };
    },
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

const LATEST_STALE_CHECK = { kinds: [StoreOperationKind.STALE_HEALTH_CHECK], pageSize: 1 };

/** The newest "verify stale backups" run, polled every second while it runs. */
export function useLatestStaleCheckQuery() {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(BackupInsightService.method.listBackupInsightOperations, LATEST_STALE_CHECK),
    queryFn: async ({ signal }) => {
      const page = await api.backupInsight.listBackupInsightOperations(LATEST_STALE_CHECK, {
        signal,
      });
      return page.operations[0] ?? null;
    },
    refetchInterval: (query) =>
      query.state.data && isActiveState(query.state.data.state) ? FAST_POLL_MS : SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

/** Starts "verify stale backups" for backups not verified within `days` (0: every backup). */
export function useStartStaleCheckMutation() {
  const api = useApi();
  const queryClient = useQueryClient();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: (days: number) =>
      api.backupInsight.startStaleHealthCheck({ olderThan: durationFromMs(days * 86_400_000) }),
    onSuccess: (handle) => {
      track(handle);
      void queryClient.invalidateQueries({
        queryKey: rpcKey(BackupInsightService.method.listBackupInsightOperations),
      });
    },
  });
}

/** After a run finishes, the table and the dashboard read the verdicts it wrote. */
export function useRefreshVerdicts() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: serviceKey(BackupControlService) });
    void queryClient.invalidateQueries({
      queryKey: rpcKey(BackupInsightService.method.getCatalogSummary),
    });
  }, [queryClient]);
}
