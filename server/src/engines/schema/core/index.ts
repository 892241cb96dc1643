// The pure core of the schema engine: no storage, no transport. Engines import from here.
export * from './types.js';
export { isJsonPointer, pointerTokens, escapePointerToken } from './json-pointer.js';
export { LruCache } from './lru-cache.js';
export { UINT32_MAX, isUint32 } from './uint32.js';
export {
  DEFAULT_VIOLATION_LIMIT,
  VALIDATOR_CACHE_SIZE,
  checkPolicyFields,
  clearValidatorCache,
  compilePolicy,
  compileSchema,
  firstViolations,
  formatViolation,
  type CompiledPolicy,
  type KeywordViolation,
  type PolicyValidator,
} from './policy-compiler.js';
export {
  applyTransform,
  formatTransformFailure,
  validateTransform,
  type PatchOpKind,
  type TransformFailure,
  type TransformResult,
} from './value-transform.js';
export { advanceTarget, validateVersionConfig } from './version-config.js';
export {
  migrateValue,
  planMigration,
  type FailedStep,
  type MigrationResult,
  type StepObserver,
} from './migration.js';
export {
  MAX_POLICY_SCHEMA_BRANCHES,
  MAX_POLICY_SCHEMA_EXPANDED,
  checkSchemaLimits,
} from './schema-limits.js';
export { decideRemediation, type RemediationDecision } from './remediation.js';
export {
  ComplianceAccumulator,
  type ComplianceTally,
  type KeyedViolation,
  type ScannedEntry,
} from './compliance-accumulator.js';
