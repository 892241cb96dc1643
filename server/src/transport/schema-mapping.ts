import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import {
  StoreOperationState,
  StoreSchemaComplianceReportSchema,
  StoreSchemaDeadLetterEntrySchema,
  StoreSchemaDeadLetterReason,
  StoreSchemaMode,
  StoreSchemaPolicySchema,
  StoreSchemaRemediationReportSchema,
  StoreSchemaVersionConfigSchema,
  type StoreSchemaComplianceReport,
  type StoreSchemaDeadLetterEntry,
  type StoreSchemaPolicy,
  type StoreSchemaRemediationReport,
  type StoreSchemaVersionConfig,
  type StoreValueTransform,
} from '@store/contract';
import { invalidArgument } from '../engines/errors.js';
import type { ValueTransform, VersionConfig } from '../engines/schema/core/index.js';
import type {
  ComplianceReport,
  DeadLetter,
  RemediationReport,
  StoredPolicy,
} from '../engines/schema/records.js';
import type { PolicyInput } from '../engines/schema/schema-engine.js';
import type { ResultMapper } from './operation-mapping.js';

/** The engine's policy input from the wire; UNSPECIFIED mode is ENFORCE. */
export function policyFromProto(policy: StoreSchemaPolicy | undefined, field: string): PolicyInput {
  if (!policy) throw invalidArgument(field, 'a policy is required');
  let mode: PolicyInput['mode'];
  if (policy.mode === StoreSchemaMode.AUDIT) mode = 'AUDIT';
  else if (policy.mode === StoreSchemaMode.ENFORCE || policy.mode === StoreSchemaMode.UNSPECIFIED) {
    mode = 'ENFORCE';
  } else throw invalidArgument(`${field}.mode`, `${String(policy.mode)} is not a schema mode`);
  return {
    jsonSchema: policy.jsonSchema,
    mode,
    version: policy.version,
    description: policy.description,
  };
}

/** A stored policy on the wire. */
export function policyToProto(policy: StoredPolicy): StoreSchemaPolicy {
  return create(StoreSchemaPolicySchema, {
    jsonSchema: policy.jsonSchema,
    mode: policy.mode === 'AUDIT' ? StoreSchemaMode.AUDIT : StoreSchemaMode.ENFORCE,
    version: policy.version,
    description: policy.description,
    updatedAt: timestampFromMs(policy.updatedAt),
    updatedBy: policy.updatedBy,
  });
}

/** The engine's transform from the wire (absent optional fields stay absent). */
export function transformFromProto(
  transform: StoreValueTransform | undefined,
  field: string,
): ValueTransform {
  if (!transform) throw invalidArgument(field, 'a transform is required');
  return {
    ops: transform.ops.map((op) => ({
      op: op.op,
      path: op.path,
      ...(op.from !== undefined && { from: op.from }),
      ...(op.valueJson !== undefined && { valueJson: op.valueJson }),
    })),
  };
}

function transformToProto(transform: ValueTransform | undefined) {
  return { ops: (transform?.ops ?? []).map((op) => ({ ...op })) };
}

/** The engine's version config from the wire. */
export function versionConfigFromProto(
  config: StoreSchemaVersionConfig | undefined,
  field: string,
): VersionConfig {
  if (!config) throw invalidArgument(field, 'a version config is required');
  return {
    currentVersion: config.currentVersion,
    targetVersion: config.targetVersion,
    migrations: config.migrations.map((step) => ({
      fromVersion: step.fromVersion,
      toVersion: step.toVersion,
      // A step without a transform only bumps the version (core's rule).
      ...(step.transform !== undefined && {
        transform: transformFromProto(step.transform, 'transform'),
      }),
    })),
  };
}

/** A version config on the wire. */
export function versionConfigToProto(config: VersionConfig): StoreSchemaVersionConfig {
  return create(StoreSchemaVersionConfigSchema, {
    currentVersion: config.currentVersion,
    targetVersion: config.targetVersion,
    migrations: config.migrations.map((step) => ({
      fromVersion: step.fromVersion,
      toVersion: step.toVersion,
      transform: transformToProto(step.transform),
    })),
  });
}

/** A dead letter on the wire. */
export function deadLetterToProto(letter: DeadLetter): StoreSchemaDeadLetterEntry {
  return create(StoreSchemaDeadLetterEntrySchema, {
    key: letter.key,
    valueJson: letter.valueJson,
    reason: StoreSchemaDeadLetterReason[letter.reason],
    errors: letter.errors,
    sourceOperationId: letter.sourceOperationId ?? undefined,
    schemaVersion: letter.schemaVersion,
    deadLetteredAt: timestampFromMs(letter.deadLetteredAt),
  });
}

/** A remediation or migration report on the wire. */
export function remediationReportToProto(report: RemediationReport): StoreSchemaRemediationReport {
  return create(StoreSchemaRemediationReportSchema, {
    treeId: report.treeId,
    state: StoreOperationState[report.state],
    scanned: BigInt(report.scanned),
    alreadyCompliant: BigInt(report.alreadyCompliant),
    transformed: BigInt(report.transformed),
    deadLettered: BigInt(report.deadLettered),
    failed: BigInt(report.failed),
    fromVersion: report.fromVersion,
    toVersion: report.toVersion,
    startedAt: timestampFromMs(report.startedAt),
    finishedAt: report.finishedAt === null ? undefined : timestampFromMs(report.finishedAt),
    operationId: report.operationId ?? undefined,
  });
}

/** A compliance report on the wire. */
export function complianceReportToProto(report: ComplianceReport): StoreSchemaComplianceReport {
  return create(StoreSchemaComplianceReportSchema, {
    treeId: report.treeId,
    policyVersion: report.policyVersion,
    scanned: BigInt(report.scanned),
    compliant: BigInt(report.compliant),
    nonCompliant: BigInt(report.nonCompliant),
    violations: report.violations.map((v) => ({ ...v })),
    scannedAt: timestampFromMs(report.scannedAt),
  });
}

const remediationResult: ResultMapper = (result) => ({
  case: 'remediationReport',
  value: remediationReportToProto(result as RemediationReport),
});

/** Result mappers of the schema kinds: their stored JSON results → the status's result oneof. */
export const SCHEMA_RESULT_MAPPERS: Readonly<Record<string, ResultMapper>> = {
  REMEDIATION: remediationResult,
  MIGRATION: remediationResult,
  ADVANCE_AND_MIGRATE: remediationResult,
  COMPLIANCE_SCAN: (result) => ({
    case: 'complianceReport',
    value: complianceReportToProto(result as ComplianceReport),
  }),
};
