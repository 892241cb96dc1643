import type { ConnectRouter, HandlerContext } from '@connectrpc/connect';
import { SchemaInsightService } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { SCHEMA_INSIGHT_OPERATION_KINDS } from '../../engines/operation-kinds.js';
import type { MigrationPreviewReport } from '../../engines/schema/insight/migration-preview.js';
import type { SchemaInsight } from '../../engines/schema/insight/schema-insight.js';
import type { Starter } from '../../engines/operations/index.js';
import { invalidArgument } from '../../engines/errors.js';
import { callScopeOf } from '../call-scope.js';
import type { OperationView } from '../operations/operation-mapping.js';
import type { OperationsFacade } from '../operations/operations-facade.js';
import { policyToProto } from '../schema/schema-mapping.js';
import { addGuardedApi, type StoreApiHost, type StoreApiSetup } from '../store-api-host.js';
import { deadLetterDiscardHandlers } from './dead-letter-discard-handlers.js';
import { SCHEMA_INSIGHT_SERVICE } from './schema-insight-access.js';
import {
  deadLetterRecordToProto,
  filterFromProto,
  toInsightHandle,
  toInsightListFilter,
  toInsightStatus,
} from './schema-insight-mapping.js';

export interface SchemaInsightFacades {
  insight: SchemaInsight;
  operations: OperationsFacade;
}

function startOf(context: HandlerContext, operationId: string | undefined): Starter {
  const { caller, tenant } = callScopeOf(context);
  return { tenant, createdBy: caller.subject, trackingId: operationId };
}

const KINDS = SCHEMA_INSIGHT_OPERATION_KINDS;

/** A status on the wire; a finished migration preview is first checked against the tree now. */
async function wireStatus(insight: SchemaInsight, tenant: string, operation: OperationView) {
  const preview =
    operation.kind === 'MIGRATION_PREVIEW' && operation.result !== undefined
      ? (operation.result as MigrationPreviewReport)
      : undefined;
  const stale = preview ? await insight.previewIsStale(tenant, preview) : false;
  return toInsightStatus(operation, stale);
}

/** SchemaInsightService (issue 16): every call in the caller's tenant. */
export function registerSchemaInsightService(
  router: ConnectRouter,
  { insight, operations }: SchemaInsightFacades,
): void {
  const statusOf = async (tenant: string, operation: OperationView | undefined) =>
    operation
      ? { found: true, status: await wireStatus(insight, tenant, operation) }
      : { found: false };
  router.service(SchemaInsightService, {
    async startPolicyDryRun(request, context) {
      const start = startOf(context, request.operationId);
      const op = await insight.startPolicyDryRun(start, request.treeId, {
        jsonSchema: request.jsonSchema,
        sampleLimit: request.sampleLimit,
      });
      return toInsightHandle(op);
    },
    async startMigrationPreview(request, context) {
      const start = startOf(context, request.operationId);
      const op = await insight.startMigrationPreview(start, request.treeId, {
        newTargetVersion: request.newTargetVersion,
        sampleLimit: request.sampleLimit,
      });
      return toInsightHandle(op);
    },
    async validateValue(request, context) {
      const { tenant } = callScopeOf(context);
      const check = await insight.validateValue(tenant, request.treeId, request.valueJson);
      return {
        hasPolicy: check.policy !== undefined,
        policy: check.policy && policyToProto(check.policy),
        accepted: check.accepted,
        violations: check.violations.map((v) => ({
          instancePath: v.path,
          keyword: v.keyword,
          message: v.message,
        })),
      };
    },
    async listDeadLetters(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await insight.listDeadLetters(tenant, request.treeId, {
        pageSize: request.pageSize,
        pageToken: request.pageToken,
        filter: filterFromProto(request.filter),
        includeReplayed: request.includeReplayed,
        includeDiscarded: request.includeDiscarded,
      });
      return {
        deadLetters: page.deadLetters.map(deadLetterRecordToProto),
        nextPageToken: page.nextPageToken,
      };
    },
    async replayDeadLetter(request, context) {
      const { caller, tenant } = callScopeOf(context);
      const id = request.deadLetterId;
      if (id <= 0n || id > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw invalidArgument('dead_letter_id', 'must be a positive id');
      }
      const letter = await insight.replayer.replayOne(
        { tenant, treeName: request.treeId, replayedBy: caller.subject },
        Number(id),
        request.valueJson,
      );
      return { deadLetter: deadLetterRecordToProto(letter) };
    },
    async startDeadLetterReplay(request, context) {
      const start = startOf(context, request.operationId);
      const filter = filterFromProto(request.filter);
      return toInsightHandle(await insight.startDeadLetterReplay(start, request.treeId, filter));
    },
    async getSchemaInsightOperationStatus(request, context) {
      const { tenant } = callScopeOf(context);
      return statusOf(tenant, await operations.get(tenant, request.operationId, KINDS));
    },
    async listSchemaInsightOperations(request, context) {
      const { tenant } = callScopeOf(context);
      const page = await operations.list(tenant, toInsightListFilter(request));
      return {
        operations: await Promise.all(page.operations.map((op) => wireStatus(insight, tenant, op))),
        nextPageToken: page.nextPageToken,
      };
    },
    async cancelSchemaInsightOperation(request, context) {
      const { tenant, caller } = callScopeOf(context);
      const operation = await operations.cancel(tenant, request.operationId, KINDS, caller.subject);
      return statusOf(tenant, operation);
    },
    ...deadLetterDiscardHandlers(insight),
  });
}

/** Adds SchemaInsightService with the store's interceptor, authorizer and access gate. */
export function addSchemaInsightApi(
  host: StoreApiHost,
  facades: SchemaInsightFacades,
  configure?: (setup: StoreApiSetup) => void,
): StoreApiSetup {
  if (host === null || host === undefined) throw new TypeError('host is required');
  return addGuardedApi(
    host,
    SCHEMA_INSIGHT_SERVICE,
    (router) => registerSchemaInsightService(router, facades),
    configure,
  );
}
