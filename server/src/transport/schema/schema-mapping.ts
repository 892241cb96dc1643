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
import { invalidArgument } from '../../engines/errors.js';
import type { ValueTransform, VersionConfig } from '../../engines/schema/core/index.js';
import type {
  ComplianceReport,
  DeadLetter,
  RemediationReport,
  StoredPolicy,
} from '../../engines/schema/records.js';
import type { PolicyInput } from '../../engines/schema/schema-engine.js';
import type { ResultMapper } from '../operations/operation-mapping.js';

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

/**
 * The engine's transform from the wire (absent optional fields stay absent). Spec 001: the value
 * transform is a value type and cannot be null, so an absent one is its default, the empty
 * transform (no operations: a value passes through unchanged).
 */
export function transformFromProto(transform: StoreValueTransform | undefined): ValueTransform {
  if (!transform) return { ops: [] };
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

/** The default version config: version 0, target 0, no migrations (what an absent one means). */
export const DEFAULT_VERSION_CONFIG: VersionConfig = {
  currentVersion: 0,
  targetVersion: 0,
  migrations: [],
};

/**
 * The engine's version config from the wire. Spec 001: the version config is a value type and
 * cannot be null, so an absent one is DEFAULT_VERSION_CONFIG, and a step without a transform has
 * the default empty transform (it only bumps the version).
 */
export function versionConfigFromProto(
  config: StoreSchemaVersionConfig | undefined,
): VersionConfig {
  if (!config) return DEFAULT_VERSION_CONFIG;
  return {
    currentVersion: config.currentVersion,
    targetVersion: config.targetVersion,
    migrations: config.migrations.map((step) => ({
      fromVersion: step.fromVersion,
      toVersion: step.toVersion,
      transform: transformFromProto(step.transform),
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

/**
 * The report GetRemediationStatus answers for a tree never remediated or migrated: spec 001's
 * SchemaRemediationReportResponse.Report is required, so it is an empty report (state
 * UNSPECIFIED, counts 0, no times) naming the tree, never an absent one.
 */
export function emptyRemediationReport(treeId: string): StoreSchemaRemediationReport {
  return create(StoreSchemaRemediationReportSchema, { treeId });
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
