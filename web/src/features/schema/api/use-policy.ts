import type { MessageInitShape } from '@bufbuild/protobuf';
import { TreeDataService, type StoreSchemaPolicySchema } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { methodKey } from '../../../lib/query-keys';
import { policyKey } from '../../../lib/schema/use-get-policy-query';
import { useApi, useToast } from '../../../lib/services';

export type PolicyInit = MessageInitShape<typeof StoreSchemaPolicySchema>;

/** SetPolicy; its InvalidArgument (a schema that does not compile) shows under the editor. */
export function useSetPolicyMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (policy: PolicyInit) => api.schema.setPolicy(treeId, policy),
    meta: { silent: true },
    onSuccess: async () => {
      toast({ tone: 'success', title: `Policy set on ${treeId}` });
      await invalidatePolicy(queryClient, treeId);
    },
  });
}

/** ClearPolicy; says so when there was nothing to clear. */
export function useClearPolicyMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: () => api.schema.clearPolicy(treeId),
    meta: { errorTitle: 'Clearing the policy failed' },
    onSuccess: async (removed) => {
      toast({
        tone: 'success',
        title: removed ? `Policy cleared on ${treeId}` : `${treeId} had no policy`,
      });
      await invalidatePolicy(queryClient, treeId);
    },
  });
}

async function invalidatePolicy(queryClient: ReturnType<typeof useQueryClient>, treeId: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: policyKey(treeId) }),
    // The tree list shows whether each tree has a policy.
    queryClient.invalidateQueries({ queryKey: methodKey(TreeDataService.method.listTrees) }),
  ]);
}
