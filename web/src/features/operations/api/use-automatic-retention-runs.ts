import {
  BackupLifecycleService,
  StoreOperationKind,
  type StoreOperationStatus,
} from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef } from 'react';
import { useLifecycleClient } from '../../../lib/api/lifecycle-client';
import { unlessUnimplemented } from '../../../lib/operations/schema-insight-operations';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useActiveTenant } from '../../../lib/services';

/** The newest retention applies of the tenant: what the automatic ones are picked from. */
export const RECENT_RETENTION_REQUEST = {
  kinds: [StoreOperationKind.RETENTION_APPLY],
  pageSize: 20,
};

/** Who starts the apply that runs after a scheduled capture (its operation's created_by). */
export const AUTOMATIC_RETENTION_SUBJECT = 'retention';

/**
 * The automatic retention applies (run by themselves after a scheduled capture) that appeared
 * while the console was open. Such a run is short and nobody started it, so it may begin and end
 * between two polls of the running list: the tray follows these too, so each one shows there and
 * announces its result like any other operation. The first answer is the baseline (runs before
 * the console opened are on the Operations page, not news); the server's list is read, so the
 * browser's clock plays no part. Polled slowly, never while the tab is hidden.
 */
export function useAutomaticRetentionRuns(): StoreOperationStatus[] {
  const client = useLifecycleClient();
  const tenant = useActiveTenant();
  const baseline = useRef<{ tenant: string; ids: Set<string> } | null>(null);
  const query = useQuery({
    queryKey: rpcKey(
      BackupLifecycleService.method.listLifecycleOperations,
      RECENT_RETENTION_REQUEST,
    ),
    queryFn: async ({ signal }) =>
      (await unlessUnimplemented(
        client.listLifecycleOperations(RECENT_RETENTION_REQUEST, { signal }),
        null,
      )) ?? { operations: [], nextPageToken: '' },
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
  const operations = query.data?.operations;
  return useMemo(() => {
    if (!operations) return [];
    if (baseline.current?.tenant !== tenant) {
      baseline.current = { tenant, ids: new Set(operations.map((op) => op.operationId)) };
      return [];
    }
    const known = baseline.current.ids;
    return operations.filter(
      (op) => op.createdBy === AUTOMATIC_RETENTION_SUBJECT && !known.has(op.operationId),
    );
  }, [operations, tenant]);
}
