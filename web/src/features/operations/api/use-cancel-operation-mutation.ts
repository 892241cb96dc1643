import type { StoreOperationStatus } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRestoreDrillClient } from '../../../lib/api/drill-client';
import { useLifecycleClient } from '../../../lib/api/lifecycle-client';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';
import { useWhoAmIQuery } from '../../../lib/identity/use-who-am-i-query';
import { familyOf, kindLabel } from '../../../lib/operations/operation-kinds';
import { recordOwnCancel } from '../../../lib/operations/own-cancels';
import { refreshOperationLists } from '../../../lib/operations/operation-keys';
import { useApi, useToast } from '../../../lib/services';
import { cancelOperation, type FoundOperation } from './operation-status';
import { operationKey } from './use-get-operation-query';

/** Requests cancellation; the detail shows the answer at once and the lists refresh. */
export function useCancelOperationMutation() {
  const api = useApi();
  const schemaInsight = useSchemaInsightClient();
  const lifecycle = useLifecycleClient();
  const drills = useRestoreDrillClient();
  const queryClient = useQueryClient();
  const toast = useToast();
  const who = useWhoAmIQuery();
  return useMutation({
    mutationFn: (operation: StoreOperationStatus) =>
      cancelOperation(api, { schemaInsight, lifecycle, drills }, operation),
    meta: { errorTitle: 'Cancel failed' },
    onSuccess: (status) => {
      // The server does not record who cancelled; this tab remembers its own cancels.
      recordOwnCancel(status.operationId, who.data?.displayName || who.data?.subject || 'you');
      const found: FoundOperation = { family: familyOf(status.kind), status };
      queryClient.setQueryData(operationKey(status.operationId), found);
      void refreshOperationLists(queryClient);
      toast({
        tone: 'success',
        title: `Cancellation requested: ${kindLabel(status.kind).toLowerCase()}`,
        detail: `Operation ${status.operationId}`,
      });
    },
  });
}
