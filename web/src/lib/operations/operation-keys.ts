import { BackupControlService, SchemaControlService } from '@store/contract';
import type { QueryClient } from '@tanstack/react-query';
import { rpcKey } from '../query-keys';

/** Key prefixes of every operations list of both services (any filter, any page size). */
export const operationListKeys = [
  rpcKey(BackupControlService.method.listBackupOperations),
  rpcKey(SchemaControlService.method.listSchemaOperations),
] as const;

/** Refreshes every operations list now, e.g. after a start RPC, instead of at the next tick. */
export function refreshOperationLists(queryClient: QueryClient): Promise<void> {
  return Promise.all(
    operationListKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  ).then(() => undefined);
}
