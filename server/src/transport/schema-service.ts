import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { SchemaControlService } from '@store/contract';
import { COMPLIANCE_OPERATION_KINDS, SCHEMA_OPERATION_KINDS } from '../engines/operation-kinds.js';
import type { SchemaEngine } from '../engines/schema/schema-engine.js';
import type { SchemaOperations, StartContext } from '../engines/schema/schema-tracked.js';
import type { AuthSchemeSource } from './auth-schemes.js';
import { callScopeOf } from './call-scope.js';
import {
  toHandle,
  toListFilter,
  toOperationStatus,
  type ResultMapper,
} from './operation-mapping.js';
import type { OperationsFacade } from './operations-facade.js';
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

function startOf(context: HandlerContext, operationId: string | undefined): StartContext {
  const { caller, tenant } = callScopeOf(context);
  return { tenant, createdBy: caller.subject, trackingId: operationId };
}

/** SchemaControlService; RPCs whose engine is not on this server answer Unimplemented. */
export function registerSchemaService(router: ConnectRouter, facades: SchemaBindingFacades): void {
  const { operations, complianceOperations, engine, tracked, resultMappers } = facades;
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
    ...(operations && {
      async getSchemaOperationStatus(request, context) {
        const { tenant } = callScopeOf(context);
        const operation = await operations.get(tenant, request.operationId, SCHEMA_OPERATION_KINDS);
        return { status: operation && toOperationStatus(operation, resultMappers) };
      },
      async listSchemaOperations(request, context) {
        const { tenant } = callScopeOf(context);
        const page = await operations.list(tenant, toListFilter(request, SCHEMA_OPERATION_KINDS));
        return {
          operations: page.operations.map((o) => toOperationStatus(o, resultMappers)),
          nextPageToken: page.nextPageToken,
        };
      },
      async cancelSchemaOperation(request, context) {
        const { tenant } = callScopeOf(context);
        const operation = await operations.cancel(
          tenant,
          request.operationId,
          SCHEMA_OPERATION_KINDS,
        );
        return { status: operation && toOperationStatus(operation, resultMappers) };
      },
    }),
    ...(complianceOperations && {
      ...(tracked && {
        async startComplianceScan(request, context) {
          const start = startOf(context, request.operationId);
          return toHandle(await tracked.startComplianceScan(start, request.treeId));
        },
      }),
      async getComplianceScanStatus(request, context) {
        const { tenant } = callScopeOf(context);
        const operation = await complianceOperations.get(
          tenant,
          request.operationId,
          COMPLIANCE_OPERATION_KINDS,
        );
        return { status: operation && toOperationStatus(operation, resultMappers) };
      },
      async listComplianceScans(request, context) {
        const { tenant } = callScopeOf(context);
        const page = await complianceOperations.list(
          tenant,
          toListFilter(request, COMPLIANCE_OPERATION_KINDS),
        );
        return {
          operations: page.operations.map((o) => toOperationStatus(o, resultMappers)),
          nextPageToken: page.nextPageToken,
        };
      },
      async cancelComplianceScan(request, context) {
        const { tenant } = callScopeOf(context);
        const operation = await complianceOperations.cancel(
          tenant,
          request.operationId,
          COMPLIANCE_OPERATION_KINDS,
        );
        return { status: operation && toOperationStatus(operation, resultMappers) };
      },
    }),
  });
}
