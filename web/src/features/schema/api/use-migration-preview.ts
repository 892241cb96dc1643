import { useMutation } from '@tanstack/react-query';
import { useSchemaInsightClient } from '../../../lib/api/schema-insight-client';

/**
 * Starts a preview of StartMigration (no new target) or StartAdvanceAndMigrate (a new target):
 * what the run would change, read without writing. Its status is polled with
 * useSchemaInsightOperationQuery.
 */
export function useStartMigrationPreviewMutation(treeId: string) {
  const client = useSchemaInsightClient();
  return useMutation({
    mutationFn: (newTargetVersion: number | undefined) =>
      client.startMigrationPreview({ treeId, newTargetVersion }),
    meta: { silent: true },
  });
}
