import { create } from '@bufbuild/protobuf';
import { timestampFromMs, timestampMs } from '@bufbuild/protobuf/wkt';
import { StoreSchemaDeadLetterReason } from '@store/contract';
import {
  DeadLetterRecordSchema,
  DeadLetterReplayReportSchema,
  PolicyDryRunReportSchema,
  DeadLetterReplayOutcome,
  SchemaInsightOperationHandleSchema,
  SchemaInsightOperationKind,
  SchemaInsightOperationStatusSchema,
  type DeadLetterFilter as WireFilter,
  type DeadLetterRecord,
  type SchemaInsightOperationHandle,
  type SchemaInsightOperationListRequest,
  type SchemaInsightOperationStatus,
} from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { invalidArgument } from '../../engines/errors.js';
import { SCHEMA_INSIGHT_OPERATION_KINDS } from '../../engines/operation-kinds.js';
import type { DeadLetterReplayReport } from '../../engines/schema/insight/dead-letter-replay.js';
import type { PolicyDryRunReport } from '../../engines/schema/insight/dry-run.js';
import type { MigrationPreviewReport } from '../../engines/schema/insight/migration-preview.js';
import type { DeadLetterFilter } from '../../engines/schema/insight/schema-insight.js';
import type { DeadLetterRecordRow } from '../../engines/schema/insight/schema-insight.js';
import {
  kindAndStateNames,
  sharedStatusFields,
  type OperationView,
} from '../operations/operation-mapping.js';
import { deadLetterToProto } from '../schema/schema-mapping.js';
import { migrationPreviewToProto } from './migration-preview-mapping.js';

function kindToProto(kind: string): SchemaInsightOperationKind {
  return (
    SchemaInsightOperationKind[kind as keyof typeof SchemaInsightOperationKind] ??
    SchemaInsightOperationKind.UNSPECIFIED
  );
}

function outcomeToProto(outcome: string | null): DeadLetterReplayOutcome {
  if (outcome === 'WRITTEN') return DeadLetterReplayOutcome.WRITTEN;
  if (outcome === 'REFUSED') return DeadLetterReplayOutcome.REFUSED;
  return DeadLetterReplayOutcome.UNSPECIFIED;
}

/** The handle a start RPC returns. */
export function toInsightHandle(operation: OperationView): SchemaInsightOperationHandle {
  return create(SchemaInsightOperationHandleSchema, {
    operationId: operation.id,
    kind: kindToProto(operation.kind),
    acceptedAt: timestampFromMs(operation.createdAt),
  });
}

/** A dead letter with its id and replay history on the wire. */
export function deadLetterRecordToProto(row: DeadLetterRecordRow): DeadLetterRecord {
  return create(DeadLetterRecordSchema, {
    deadLetterId: BigInt(row.id),
    entry: deadLetterToProto({
      ...row,
      reason: (row.reason in StoreSchemaDeadLetterReason
        ? row.reason
        : 'SCHEMA_VIOLATION') as 'SCHEMA_VIOLATION',
    }),
    replayOutcome: outcomeToProto(row.replayOutcome),
    replayedBy: row.replayedBy ?? undefined,
    replayedAt: row.replayedAt === null ? undefined : timestampFromMs(row.replayedAt),
    replaySequence: row.replaySequence === null ? undefined : BigInt(row.replaySequence),
    replayedValueJson: row.replayedValueJson ?? undefined,
    replayErrors: row.replayErrors,
    discardedBy: row.discardedBy ?? undefined,
    discardedAt: row.discardedAt === null ? undefined : timestampFromMs(row.discardedAt),
    discardNote: row.discardNote ?? undefined,
  });
}

/** The engine's letter filter from the wire. */
export function filterFromProto(filter: WireFilter | undefined): DeadLetterFilter {
  return {
    keyPrefix: filter?.keyPrefix ?? '',
    reasons: (filter?.reasons ?? []).map((reason, index) => {
      const name = StoreSchemaDeadLetterReason[reason];
      if (name === undefined || reason === StoreSchemaDeadLetterReason.UNSPECIFIED) {
        throw invalidArgument(`filter.reasons[${index}]`, `${reason} is not a dead-letter reason`);
      }
      return name;
    }),
    ids: (filter?.deadLetterIds ?? []).map((id, index) => {
      if (id <= 0n || id > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw invalidArgument(`filter.dead_letter_ids[${index}]`, 'must be a positive id');
      }
      return Number(id);
    }),
    before: filter?.deadLetteredBefore && timestampMs(filter.deadLetteredBefore),
  };
}

function resultOf(
  operation: OperationView,
  treeChanged: boolean,
): SchemaInsightOperationStatus['result'] {
  if (operation.result === undefined) return { case: undefined };
  if (operation.kind === 'MIGRATION_PREVIEW') {
    const report = operation.result as MigrationPreviewReport;
    return { case: 'migrationPreview', value: migrationPreviewToProto(report, treeChanged) };
  }
  if (operation.kind === 'POLICY_DRY_RUN') {
    const report = operation.result as PolicyDryRunReport;
    return {
      case: 'dryRun',
      value: create(PolicyDryRunReportSchema, {
        treeId: report.treeId,
        scanned: BigInt(report.scanned),
        failing: BigInt(report.failing),
        groups: report.groups.map((g) => ({
          keyword: g.keyword,
          instancePath: g.instancePath,
          entryCount: BigInt(g.entryCount),
          exampleMessage: g.exampleMessage,
        })),
        otherFailures: BigInt(report.otherFailures),
        samples: report.samples.map((s) => ({
          key: s.key,
          reasons: s.reasons,
        })),
        schemaHash: report.schemaHash,
        evaluatedAt: timestampFromMs(report.evaluatedAt),
      }),
    };
  }
  if (operation.kind === 'DEAD_LETTER_REPLAY') {
    const report = operation.result as DeadLetterReplayReport;
    return {
      case: 'replay',
      value: create(DeadLetterReplayReportSchema, {
        treeId: report.treeId,
        considered: BigInt(report.considered),
        written: BigInt(report.written),
        refused: BigInt(report.refused),
        items: report.items.map((item) => ({
          deadLetterId: BigInt(item.deadLetterId),
          key: item.key,
          outcome: outcomeToProto(item.outcome),
          sequence: BigInt(item.sequence),
          errors: item.errors,
        })),
        itemsTruncated: report.itemsTruncated,
      }),
    };
  }
  return { case: undefined };
}

/**
 * A schema-insight operation's status, with its result; `treeChanged` says whether a migration
 * preview's tree changed since it ran (the caller judges it: it needs the database).
 */
export function toInsightStatus(
  operation: OperationView,
  treeChanged = false,
): SchemaInsightOperationStatus {
  return create(SchemaInsightOperationStatusSchema, {
    ...sharedStatusFields(operation),
    kind: kindToProto(operation.kind),
    result: resultOf(operation, treeChanged),
  });
}

/** The engine's list filter, limited to the schema-insight kinds. */
export function toInsightListFilter(request: SchemaInsightOperationListRequest) {
  return {
    pageSize: request.pageSize,
    pageToken: request.pageToken,
    ...kindAndStateNames(
      request,
      SchemaInsightOperationKind,
      SCHEMA_INSIGHT_OPERATION_KINDS,
      'a schema-insight operation kind',
    ),
    targetId: request.targetId,
  };
}
