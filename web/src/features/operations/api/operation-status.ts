import type { StoreOperationStatus } from '@store/contract';
import type { Api } from '../../../lib/api/create-api';
import { familyOf, type OperationFamily } from '../../../lib/operations/operation-kinds';

export interface FoundOperation {
  family: OperationFamily;
  status: StoreOperationStatus;
}

/**
 * Looks an id up in the backup service, then the schema service (an id of another family is
 * "absent" there, DESIGN.md §3). With a known family, one request.
 */
export async function fetchOperation(
  api: Api,
  operationId: string,
  family: OperationFamily | undefined,
  signal?: AbortSignal,
): Promise<FoundOperation | null> {
  const order: OperationFamily[] =
    family === 'schema' ? ['schema'] : family === 'backup' ? ['backup'] : ['backup', 'schema'];
  for (const candidate of order) {
    const status =
      candidate === 'backup'
        ? await api.backup.getBackupOperationStatus(operationId, { signal })
        : await api.schema.getSchemaOperationStatus(operationId, { signal });
    if (status) return { family: candidate, status };
  }
  return null;
}

/** Requests cancellation through the service that owns the operation. */
export async function cancelOperation(
  api: Api,
  operation: StoreOperationStatus,
): Promise<StoreOperationStatus> {
  const status =
    familyOf(operation.kind) === 'backup'
      ? await api.backup.cancelBackupOperation(operation.operationId)
      : await api.schema.cancelSchemaOperation(operation.operationId);
  if (!status) throw new Error(`Operation ${operation.operationId} is no longer visible.`);
  return status;
}
