import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { SchemaControlService } from '@store/contract';
import {
  COMPLIANCE_OPERATION_KINDS,
  SCHEMA_OPERATION_KINDS,
} from '../../engines/operation-kinds.js';
import type { SchemaEngine } from '../../engines/schema/schema-engine.js';
import type { Starter } from '../../engines/operations/index.js';
import type { SchemaOperations } from '../../engines/schema/schema-tracked.js';
import type { AuthSchemeSource } from '../auth-schemes.js';
import { callScopeOf } from '../call-scope.js';
import { toHandle, type ResultMapper } from '../operations/operation-mapping.js';
import type { OperationsFacade } from '../operations/operations-facade.js';
import { operationQueries } from '../operations/operation-queries.js';
import { remediationInputOf, schemaTreeHandlers } from './schema-tree-handlers.js';

export interface SchemaBindingFacades {
  /** The general schema operations facade (status, list, cancel of schema kinds). */
  operations?: OperationsFacade | undefined;
  /** Without it the four compliance-scan RPCs answer Unimplemented (spec 001, rule 1). */
  complianceOperations?: OperationsFacade | undefined;
  /** The schema engine; without it the per-tree RPCs answer Unimplemented. */
  engine?: SchemaEngine | undefined;
  /** Tracked starts; without them the Start RPCs answer Unimplemented. */
  tracked?: SchemaOperations | undefined;
  schemes: AuthSchemeSource;
  resultMappers: Readonly<Record<string, ResultMapper>>;
}

function startOf(context: HandlerContext, operationId: string | undefined): Starter {
  const { caller, tenant } = callScopeOf(context);
  return { tenant, createdBy: caller.subject, trackingId: operationId };
}

/** SchemaControlService; RPCs whose engine is not on this server answer Unimplemented. */
export function registerSchemaService(router: ConnectRouter, facades: SchemaBindingFacades): void {
  const { operations, complianceOperations, engine, tracked, resultMappers } = facades;
  const schemaQueries =
    operations && operationQueries(operations, SCHEMA_OPERATION_KINDS, resultMappers);
  const complianceQueries =
    complianceOperations &&
    operationQueries(complianceOperations, COMPLIANCE_OPERATION_KINDS, resultMappers);
  router.service(SchemaControlService, {
    getAuthScheme() {
      return { schemes: facades.schemes().map((s) => ({ ...s })) };
    },
    ...(engine && schemaTreeHandlers(engine)),
    ...(tracked && {
      async startRemediation(request, context) {
        const start = startOf(context, request.operationId);
        return toHandle(
          await tracked.startRemediation(start, request.treeId, remediationInputOf(request)),
        );
      },
      async startMigration(request, context) {
        const start = startOf(context, request.operationId);
        return toHandle(await tracked.startMigration(start, request.treeId));
      },
      async startAdvanceAndMigrate(request, context) {
        const start = startOf(context, request.operationId);
        return toHandle(
          await tracked.startAdvanceAndMigrate(start, request.treeId, request.newTargetVersion),
        );
      },
    }),
    ...(schemaQueries && {
      getSchemaOperationStatus: schemaQueries.status,
      listSchemaOperations: schemaQueries.list,
      cancelSchemaOperation: schemaQueries.cancel,
    }),
    ...(complianceQueries && {
      ...(tracked && {
        async startComplianceScan(request, context) {
          const start = startOf(context, request.operationId);
          return toHandle(await tracked.startComplianceScan(start, request.treeId));
        },
      }),
      getComplianceScanStatus: complianceQueries.status,
      listComplianceScans: complianceQueries.list,
      cancelComplianceScan: complianceQueries.cancel,
    }),
  });
}
