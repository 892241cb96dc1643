import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  BackupControlService,
  SchemaControlService,
  StoreOperationState,
  type StoreOperationPage,
  type StoreOperationStatus,
} from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { listPollInterval } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { RECENT_WINDOW_MS, stableCutoff } from '../api/attention';

/** The server's largest page: the dashboard reads the last day in one request per service. */
const RECENT_PAGE_SIZE = 1_000;

/**
 * The tray's request, to the letter: the same query key shares its cache, so the dashboard's
 * running section costs no request of its own.
 */
const ACTIVE_REQUEST = {
  states: [StoreOperationState.QUEUED, StoreOperationState.RUNNING],
  pageSize: 50,
};

const polling = {
  refetchInterval: (query: { state: { data: StoreOperationPage | undefined } }) =>
    listPollInterval(query.state.data?.operations),
  refetchIntervalInBackground: false,
} as const;

export interface RecentOperations {
  /** Both services' operations created in the last day (and up to five minutes more), newest first. */
  recent: StoreOperationStatus[];
  /** More than one page was created in the window: the view shows the newest only. */
  truncated: boolean;
  /** Queued and running operations of both services, whenever they were created. */
  active: StoreOperationStatus[];
  sinceMs: number;
  isPending: boolean;
  error: Error | null;
  refetch: () => void;
}

/**
 * The dashboard's operations: one created_after list per service for the last day (failures and
 * durations), and the tray's active list for what is running. One request per service per tick.
 */
export function useRecentOperations(now: number): RecentOperations {
  const api = useApi();
  const sinceMs = stableCutoff(now, RECENT_WINDOW_MS);
  const recentRequest = { createdAfter: timestampFromMs(sinceMs), pageSize: RECENT_PAGE_SIZE };

  const backupRecent = useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackupOperations, recentRequest),
    queryFn: ({ signal }) => api.backup.listBackupOperations(recentRequest, { signal }),
    ...polling,
  });
  const schemaRecent = useQuery({
    queryKey: rpcKey(SchemaControlService.method.listSchemaOperations, recentRequest),
    queryFn: ({ signal }) => api.schema.listSchemaOperations(recentRequest, { signal }),
    ...polling,
  });
  const backupActive = useQuery({
    queryKey: rpcKey(BackupControlService.method.listBackupOperations, ACTIVE_REQUEST),
    queryFn: ({ signal }) => api.backup.listBackupOperations(ACTIVE_REQUEST, { signal }),
    ...polling,
  });
  const schemaActive = useQuery({
    queryKey: rpcKey(SchemaControlService.method.listSchemaOperations, ACTIVE_REQUEST),
    queryFn: ({ signal }) => api.schema.listSchemaOperations(ACTIVE_REQUEST, { signal }),
    ...polling,
  });

  const recent = useMemo(
    () => newestFirst([backupRecent.data, schemaRecent.data]),
    [backupRecent.data, schemaRecent.data],
  );
  const active = useMemo(
    () => newestFirst([backupActive.data, schemaActive.data]),
    [backupActive.data, schemaActive.data],
  );
  const all = [backupRecent, schemaRecent, backupActive, schemaActive];
  return {
    recent,
    truncated: !!backupRecent.data?.nextPageToken || !!schemaRecent.data?.nextPageToken,
    active,
    sinceMs,
    isPending: all.some((query) => query.isPending),
    error: all.find((query) => query.error)?.error ?? null,
    refetch: () => all.forEach((query) => void query.refetch()),
  };
}

function newestFirst(pages: (StoreOperationPage | undefined)[]): StoreOperationStatus[] {
  const created = (op: StoreOperationStatus) =>
    Number(op.createdAt?.seconds ?? 0n) * 1000 + (op.createdAt?.nanos ?? 0) / 1e6;
  return pages.flatMap((page) => page?.operations ?? []).sort((a, b) => created(b) - created(a));
}
