import {
  StoreOperationKind,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';

/**
 * A finished operation's request, rebuilt from what its status carries, for "Run again with the
 * same settings". Only where the status names every setting the start RPC takes:
 * - a backup health check: the backup (its target), nothing else;
 * - a catalog rebuild: nothing at all.
 * Captures (name, key prefix, labels, throttle), restores (key prefix, mode, batch size) and
 * scrubs (prune orphans or not) carry settings the status does not: guessing them could restore
 * or delete other data than the first run, so they are not offered.
 */
export type RunAgainRequest =
  | { kind: StoreOperationKind.BACKUP_HEALTH_CHECK; backupId: string }
  | { kind: StoreOperationKind.CATALOG_REBUILD };

export function runAgainRequest(operation: StoreOperationStatus): RunAgainRequest | undefined {
  if (operation.state !== StoreOperationState.FAILED) return undefined;
  switch (operation.kind) {
    case StoreOperationKind.BACKUP_HEALTH_CHECK:
      return operation.targetId
        ? { kind: StoreOperationKind.BACKUP_HEALTH_CHECK, backupId: operation.targetId }
        : undefined;
    case StoreOperationKind.CATALOG_REBUILD:
      return { kind: StoreOperationKind.CATALOG_REBUILD };
    default:
      return undefined;
  }
}
