import { SchemaControlService, TreeDataService } from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { serviceKey } from '../../../lib/query-keys';
import { useApi } from '../../../lib/services';
import { putEntryWithOutcome } from './put-outcome';

export interface PutEntryInput {
  key: string;
  valueJson: string;
}

/**
 * PutEntry. A write an ENFORCE policy refuses is not an error: the server answers
 * dead_lettered with the reason and keeps the value as a dead letter, so the caller shows that
 * outcome itself. Either way the tree's lists (and its dead-letter counts) are refreshed.
 */
export function usePutEntryMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PutEntryInput) =>
      putEntryWithOutcome(api, treeId, input.key, input.valueJson),
    meta: { errorTitle: 'Put entry failed' },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: serviceKey(TreeDataService) });
      void queryClient.invalidateQueries({ queryKey: serviceKey(SchemaControlService) });
    },
  });
}

/** DeleteEntry (a tombstone); resolves to whether a live entry was there to delete. */
export function useDeleteEntryMutation(treeId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (key: string) => (await api.data.deleteEntry({ treeId, key })).deleted,
    meta: { errorTitle: 'Delete entry failed' },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: serviceKey(TreeDataService) });
    },
  });
}
