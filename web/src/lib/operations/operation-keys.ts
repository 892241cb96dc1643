import {
  BackupControlService,
  BackupInsightService,
  BackupLifecycleService,
  DrillProofService,
  SchemaControlService,
} from '@store/contract';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import type { QueryClient } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';

/** Key prefixes of every operations list of every service (any filter, any page size). */
export const operationListKeys = [
  rpcKey(BackupControlService.method.listBackupOperations),
  rpcKey(SchemaControlService.method.listSchemaOperations),
  rpcKey(BackupInsightService.method.listBackupInsightOperations),
  rpcKey(SchemaInsightService.method.listSchemaInsightOperations),
  rpcKey(BackupLifecycleService.method.listLifecycleOperations),
  rpcKey(DrillProofService.method.listRestoreDrillOperations),
] as const;

/** Refreshes every operations list now, e.g. after a start RPC, instead of at the next tick. */
export function refreshOperationLists(queryClient: QueryClient): Promise<void> {
  return Promise.all(
    operationListKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  ).then(() => undefined);
}
