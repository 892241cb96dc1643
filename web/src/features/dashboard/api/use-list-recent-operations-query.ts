import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import type { StoreOperationStatus } from '@store/contract';
import { useMemo } from 'react';
import {
  ACTIVE_OPERATIONS_REQUEST,
  allOperationLists,
  useOperationLists,
  type ConsoleOperationPage,
} from '../../../lib/operations/use-operation-lists';
import { RECENT_WINDOW_MS, stableCutoff } from '../utils/attention';

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
export function useListRecentOperationsQuery(now: number): RecentOperations {
  const sinceMs = stableCutoff(now, RECENT_WINDOW_MS);
  const recentRequest = { createdAfter: timestampFromMs(sinceMs), pageSize: RECENT_PAGE_SIZE };
  const recentLists = allOperationLists(useOperationLists(recentRequest));
  // The tray's request, to the letter: it shares the tray's cache, so costs no request of its own.
  const activeLists = allOperationLists(useOperationLists(ACTIVE_OPERATIONS_REQUEST));

  const [b1, s1, bi1, si1] = recentLists.map((query) => query.data);
  const [b2, s2, bi2, si2] = activeLists.map((query) => query.data);
  const recent = useMemo(() => newestFirst([b1, s1, bi1, si1]), [b1, s1, bi1, si1]);
  const active = useMemo(() => newestFirst([b2, s2, bi2, si2]), [b2, s2, bi2, si2]);
  const all = [...recentLists, ...activeLists];
  return {
    recent,
    truncated: recentLists.some((query) => !!query.data?.nextPageToken),
    active,
    sinceMs,
    isPending: all.some((query) => query.isPending),
    error: all.find((query) => query.error)?.error ?? null,
    refetch: () => all.forEach((query) => void query.refetch()),
  };
}

function newestFirst(
  pages: ({ operations: readonly StoreOperationStatus[] } | ConsoleOperationPage | undefined)[],
): StoreOperationStatus[] {
  const created = (op: StoreOperationStatus) =>
    Number(op.createdAt?.seconds ?? 0n) * 1000 + (op.createdAt?.nanos ?? 0) / 1e6;
  return pages.flatMap((page) => page?.operations ?? []).sort((a, b) => created(b) - created(a));
}
