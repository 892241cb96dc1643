import { BackupControlService } from '@store/contract';
import { useQuery, useQueryClient, type DataTag, type QueryKey } from '@tanstack/react-query';
import { useRestoreDrillClient } from '../../../lib/api/drill-client';
import { useLifecycleClient } from '../../../lib/api/lifecycle-client';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';
import type { OperationFamily } from '../../../lib/operations/operation-kinds';
import { detailPollInterval } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { fetchOperation, type FoundOperation } from './operation-status';

/**
 * The key of one operation's status. The lookup starts at the backup service (and falls back to
 * the schema service), so its key is that method's.
 */
export function operationKey(operationId: string) {
  return rpcKey(BackupControlService.method.getBackupOperationStatus, {
    operationId,
  }) as DataTag<QueryKey, FoundOperation | null, Error>;
}

/**
 * One operation, polled FAST until it is terminal and then not at all (a terminal state never
 * changes). null when neither service knows the id. The tray passes the family it knows.
 */
export function useGetOperationQuery(operationId: string, family?: OperationFamily) {
  const api = useApi();
  const schemaInsight = useSchemaInsightClient();
  const lifecycle = useLifecycleClient();
  const drills = useRestoreDrillClient();
  const queryClient = useQueryClient();
  const queryKey = operationKey(operationId);
  return useQuery({
    queryKey,
    queryFn: ({ signal }) => {
      // After the first answer the owning service is known: one request per tick, not two.
      const known = queryClient.getQueryData(queryKey)?.family;
      return fetchOperation(
        api,
        { schemaInsight, lifecycle, drills },
        operationId,
        known ?? family,
        signal,
      );
    },
    enabled: operationId !== '',
    refetchInterval: (query) => {
      const data = query.state.data;
      return detailPollInterval(data === undefined ? undefined : (data?.status ?? null));
    },
    refetchIntervalInBackground: false,
  });
}
