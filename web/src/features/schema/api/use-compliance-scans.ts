import { SchemaControlService, type StoreOperationStatus } from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { listPollInterval } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useActiveTenant, useApi, useToast } from '../../../lib/services';

/** How many of a tree's scans the list shows (newest first). */
export const SCAN_PAGE_SIZE = 20;

function scansKey(treeId: string) {
  return rpcKey(SchemaControlService.method.listComplianceScans, {
    targetId: treeId,
    pageSize: SCAN_PAGE_SIZE,
  });
}

/** The tree's latest compliance scans; FAST polling while one is queued or running. */
export function useListComplianceScansQuery(treeId: string) {
  const api = useApi();
  return useQuery({
    queryKey: scansKey(treeId),
    queryFn: ({ signal }) =>
      api.schema.listComplianceScans({ targetId: treeId, pageSize: SCAN_PAGE_SIZE }, { signal }),
    refetchInterval: (query) => listPollInterval(query.state.data?.operations),
    refetchIntervalInBackground: false,
  });
}

/** StartComplianceScan (tracked); FailedPrecondition (no policy) shows in the section. */
export function useStartComplianceScanMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: () => api.schema.startComplianceScan(treeId),
    meta: { silent: true },
    onSuccess: async (handle) => {
      track(handle);
      await queryClient.invalidateQueries({ queryKey: scansKey(treeId) });
    },
  });
}

/** CancelComplianceScan; null from the server means the scan is unknown or not visible. */
export function useCancelComplianceScanMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  const tenant = useActiveTenant();
  return useMutation({
    mutationFn: (scan: StoreOperationStatus) => api.schema.cancelComplianceScan(scan.operationId),
    meta: { errorTitle: 'Cancelling the scan failed' },
    onSuccess: async (status, scan) => {
      toast(
        status
          ? { tone: 'success', title: 'Cancellation requested', detail: `Scan ${scan.operationId}` }
          : { tone: 'error', title: `Scan ${scan.operationId} not found in tenant ${tenant}` },
      );
      await queryClient.invalidateQueries({ queryKey: scansKey(treeId) });
    },
  });
}
