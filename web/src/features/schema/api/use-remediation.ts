import { SchemaControlService, type StoreSchemaRemediationReport } from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { FAST_POLL_MS } from '../../../lib/polling';
import { rpcKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import type { WirePatchOp } from '../utils/json-patch';
import type { PolicyInit } from './use-policy';

function remediationStatusKey(treeId: string) {
  return rpcKey(SchemaControlService.method.getRemediationStatus, { treeId });
}

/**
 * The tree's latest remediation or migration report (GetRemediationStatus), polled every second
 * while it is queued or running; a finished one changes only when a new run starts, and the
 * tray refreshes schema queries when a run it follows ends.
 */
export function useGetRemediationStatusQuery(treeId: string) {
  const api = useApi();
  return useQuery({
    queryKey: remediationStatusKey(treeId),
    queryFn: ({ signal }) => api.schema.getRemediationStatus(treeId, { signal }),
    refetchInterval: (query) => activePollInterval(query.state.data),
    refetchIntervalInBackground: false,
  });
}

function activePollInterval(report: StoreSchemaRemediationReport | undefined) {
  return report && isActiveState(report.state) ? FAST_POLL_MS : false;
}

export interface RemediationInput {
  ops: WirePatchOp[];
  targetPolicy: PolicyInit;
}

/** StartRemediation (tracked); a bad transform or policy is refused at once and shown inline. */
export function useStartRemediationMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: ({ ops, targetPolicy }: RemediationInput) =>
      api.schema.startRemediation(treeId, { ops }, targetPolicy),
    meta: { silent: true },
    onSuccess: async (handle) => {
      track(handle);
      await queryClient.invalidateQueries({ queryKey: remediationStatusKey(treeId) });
    },
  });
}
