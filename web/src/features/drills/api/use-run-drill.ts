import {
  DrillProofService,
  RestoreDrillService,
  StoreOperationState,
  type RestoreDrillResult,
  type StoreOperationStatus,
} from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRestoreDrillClient } from '../../../lib/api/drill-client';
import { isTerminalState } from '../../../lib/operations/operation-kinds';
import { useTrackOperation } from '../../../lib/operations/use-track-operation';
import { detailPollInterval } from '../../../lib/polling';
import { methodKey, rpcKey, serviceKey } from '../../../lib/query-keys';

/** "Run drill" on a backup: starts the drill (operator), follows it in the tray. */
export function useStartDrillMutation(onStarted: (operationId: string) => void) {
  const client = useRestoreDrillClient();
  const track = useTrackOperation();
  return useMutation({
    mutationFn: (backupId: string) =>
      client.startRestoreDrill({ target: { case: 'backupId', value: backupId } }),
    meta: { errorTitle: 'Drill not started' },
    onSuccess: (handle) => {
      track(handle);
      onStarted(handle.operationId);
    },
  });
}

export interface DrillRun {
  status: StoreOperationStatus | undefined;
  /** Once the drill SUCCEEDED: what it found. */
  result: RestoreDrillResult | undefined;
  error: Error | null;
}

/**
 * A started drill followed live: its status polled FAST until it ends (like every tracked
 * operation), then its result read once; the proofs and histories on screen refresh then.
 */
export function useDrillRun(operationId: string | null): DrillRun {
  const client = useRestoreDrillClient();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: rpcKey(RestoreDrillService.method.getRestoreDrillStatus, {
      operationId: operationId ?? '',
    }),
    queryFn: async ({ signal }) => {
      const found = (
        await client.getRestoreDrillStatus({ operationId: operationId ?? '' }, { signal })
      ).status;
      if (found && isTerminalState(found.state)) {
        void queryClient.invalidateQueries({ queryKey: serviceKey(DrillProofService) });
        void queryClient.invalidateQueries({
          queryKey: methodKey(RestoreDrillService.method.listRestoreDrills),
        });
      }
      return found ?? null;
    },
    enabled: operationId !== null,
    refetchInterval: (query) => detailPollInterval(query.state.data),
    refetchIntervalInBackground: false,
  });
  const succeeded = status.data?.state === StoreOperationState.SUCCEEDED;
  const result = useQuery({
    queryKey: rpcKey(RestoreDrillService.method.getRestoreDrillResult, {
      operationId: operationId ?? '',
    }),
    queryFn: ({ signal }) =>
      client.getRestoreDrillResult({ operationId: operationId ?? '' }, { signal }),
    enabled: operationId !== null && succeeded,
  });
  return {
    status: status.data ?? undefined,
    result: result.data?.available ? result.data : undefined,
    error: status.error ?? result.error,
  };
}
