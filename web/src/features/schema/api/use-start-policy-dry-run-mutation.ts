import { useMutation } from '@tanstack/react-query';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';

/** Starts a dry-run of a draft schema against the tree's entries. */
export function useStartPolicyDryRunMutation(treeId: string) {
  const client = useSchemaInsightClient();
  return useMutation({
    mutationFn: (jsonSchema: string) => client.startPolicyDryRun({ treeId, jsonSchema }),
    meta: { silent: true },
  });
}
