import { BackupInsightService } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';

/** The dashboard's totals and each tree's protection: one GetCatalogSummary, slow-polled. */
export function useGetCatalogSummaryQuery() {
  const api = useApi();
  return useQuery({
    queryKey: rpcKey(BackupInsightService.method.getCatalogSummary, {}),
    queryFn: ({ signal }) => api.backupInsight.getCatalogSummary({}, { signal }),
    refetchInterval: SLOW_POLL_MS,
    refetchIntervalInBackground: false,
  });
}
