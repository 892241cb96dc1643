import { RestoreDrillService, type RestoreDrillRecord } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useRestoreDrillClient } from '../../../lib/api/drill-client';
import { unlessUnimplemented } from '../../../lib/operations/schema-insight-operations';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';

/** Drills shown in a history: the newest 50 of the scope. */
export const HISTORY_PAGE = 50;

/** A scope's drill history, newest first (ListRestoreDrills). */
export function useDrillHistoryQuery(treeId: string, keyPrefix = '') {
  const client = useRestoreDrillClient();
  const request = {
    scope: { treeId, ...(keyPrefix !== '' && { keyPrefix }) },
    pageSize: HISTORY_PAGE,
  };
  return useQuery({
    queryKey: rpcKey(RestoreDrillService.method.listRestoreDrills, request),
    queryFn: async ({ signal }): Promise<RestoreDrillRecord[]> =>
      (await unlessUnimplemented(client.listRestoreDrills(request, { signal }), null))?.drills ??
      [],
    enabled: treeId !== '',
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
