import type { StoreOperationStatus } from '@store/contract';
import type { Api } from '../../../lib/api/create-api';
import type { RestoreDrillClient } from '../../../lib/api/drill-client';
import type { LifecycleClient } from '../../../lib/api/lifecycle-client';
import type { SchemaInsightClient } from '../../../lib/api/schema-insight-client';
import {
  familyOf,
  OPERATION_FAMILIES,
  type OperationFamily,
} from '../../../lib/operations/operation-kinds';
import {
  fromSchemaInsightStatus,
  unlessUnimplemented,
} from '../../../lib/operations/schema-insight-operations';

/** The clients of the services that are not on the API layer itself. */
export interface OwnServiceClients {
  schemaInsight: SchemaInsightClient;
  lifecycle: LifecycleClient;
  drills: RestoreDrillClient;
}

export interface FoundOperation {
  family: OperationFamily;
  status: StoreOperationStatus;
}

/** One family's status of an id; undefined or null when that service does not see it. */
async function statusIn(
  api: Api,
  { schemaInsight, lifecycle, drills }: OwnServiceClients,
  family: OperationFamily,
  operationId: string,
  signal?: AbortSignal,
): Promise<StoreOperationStatus | null | undefined> {
  switch (family) {
    case 'backup':
      return api.backup.getBackupOperationStatus(operationId, { signal });
    case 'schema':
      return api.schema.getSchemaOperationStatus(operationId, { signal });
    case 'backupInsight':
      return (
        await unlessUnimplemented(
          api.backupInsight.getBackupInsightOperationStatus({ operationId }, { signal }),
          { status: undefined },
        )
      ).status;
    case 'schemaInsight': {
      const found = await unlessUnimplemented(
        schemaInsight.getSchemaInsightOperationStatus({ operationId }, { signal }),
        { found: false, status: undefined },
      );
      return found.found && found.status ? fromSchemaInsightStatus(found.status) : null;
    }
    case 'lifecycle':
      return (
        await unlessUnimplemented(
          lifecycle.getLifecycleOperationStatus({ operationId }, { signal }),
          { status: undefined },
        )
      ).status;
    case 'drill':
      return (
        await unlessUnimplemented(drills.getRestoreDrillStatus({ operationId }, { signal }), {
          status: undefined,
        })
      ).status;
  }
}

/**
 * Looks an id up in the backup service, the schema service, then the insight and lifecycle services (an id
 * of another family is "absent" there, DESIGN.md §3). With a known family, one request.
 */
export async function fetchOperation(
  api: Api,
  clients: OwnServiceClients,
  operationId: string,
  family: OperationFamily | undefined,
  signal?: AbortSignal,
): Promise<FoundOperation | null> {
  for (const candidate of family ? [family] : OPERATION_FAMILIES) {
    const status = await statusIn(api, clients, candidate, operationId, signal);
    if (status) return { family: candidate, status };
  }
  return null;
}

/** Requests cancellation through the service that owns the operation. */
export async function cancelOperation(
  api: Api,
  { schemaInsight, lifecycle, drills }: OwnServiceClients,
  operation: StoreOperationStatus,
): Promise<StoreOperationStatus> {
  const operationId = operation.operationId;
  let status: StoreOperationStatus | null | undefined;
  switch (familyOf(operation.kind)) {
    case 'backup':
      status = await api.backup.cancelBackupOperation(operationId);
      break;
    case 'schema':
      status = await api.schema.cancelSchemaOperation(operationId);
      break;
    case 'backupInsight':
      status = (await api.backupInsight.cancelBackupInsightOperation({ operationId })).status;
      break;
    case 'schemaInsight': {
      const found = await schemaInsight.cancelSchemaInsightOperation({ operationId });
      status = found.found && found.status ? fromSchemaInsightStatus(found.status) : null;
      break;
    }
    case 'lifecycle':
      status = (await lifecycle.cancelLifecycleOperation({ operationId })).status;
      break;
    case 'drill':
      status = (await drills.cancelRestoreDrill({ operationId })).status;
      break;
  }
  if (!status) throw new Error(`Operation ${operationId} is no longer visible.`);
  return status;
}
