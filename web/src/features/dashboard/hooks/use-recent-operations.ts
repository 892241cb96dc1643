import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { StoreOperationPage, StoreOperationStatus } from '@store/contract';
import { useMemo } from 'react';
import {
  ACTIVE_OPERATIONS_REQUEST,
  useOperationLists,
} from '../../../lib/operations/use-operation-lists';
import { RECENT_WINDOW_MS, stableCutoff } from '../api/attention';

/** The server's largest page: the dashboard reads the last day in one request per service. */
const RECENT_PAGE_SIZE = 1_000;

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
  const sinceMs = stableCutoff(now, RECENT_WINDOW_MS);
  const recentRequest = { createdAfter: timestampFromMs(sinceMs), pageSize: RECENT_PAGE_SIZE };
  const { backup: backupRecent, schema: schemaRecent } = useOperationLists(recentRequest);
  // The tray's request, to the letter: it shares the tray's cache, so costs no request of its own.
  const { backup: backupActive, schema: schemaActive } =
    useOperationLists(ACTIVE_OPERATIONS_REQUEST);

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
