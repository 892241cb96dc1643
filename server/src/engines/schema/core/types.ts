/**
 * Engine-level shapes of the schema records (DESIGN.md §3, Schema). They mirror the wire messages
 * but know nothing of protobuf: the transport binding converts between the two.
 */

/** ENFORCE sends a failing write to dead letters; AUDIT only reports it. */
export type PolicyMode = 'ENFORCE' | 'AUDIT';

/** The policy fields the core needs; timestamps and authorship stay with the storing engine. */
export interface SchemaPolicy {
  /** A JSON Schema (draft 2020-12) as JSON text. */
  readonly jsonSchema: string;
  readonly mode: PolicyMode;
  readonly version: number;
  readonly description?: string;
}

/** One RFC 6902 operation as the wire carries it: the value travels as JSON text. */
export interface JsonPatchOperation {
  readonly op: string;
  readonly path: string;
  readonly from?: string;
  readonly valueJson?: string;
}

/** A declarative value transform: an RFC 6902 JSON Patch. */
export interface ValueTransform {
  readonly ops: readonly JsonPatchOperation[];
}

/** One link of the migration chain; a missing transform only bumps the version. */
export interface MigrationStep {
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly transform?: ValueTransform;
}

/** A tree's version config: where its data is, where it should go, and the steps between. */
export interface VersionConfig {
  readonly currentVersion: number;
  readonly targetVersion: number;
  readonly migrations: readonly MigrationStep[];
}

/** One schema violation: where in the value, and what is wrong there. */
export interface Violation {
  /** JSON Pointer of the failing instance location; '' is the whole value. */
  readonly path: string;
  readonly message: string;
}

/** Why a value was set aside instead of written (the reasons the core can decide). */
export type CoreDeadLetterReason = 'SCHEMA_VIOLATION' | 'MIGRATION_FAILED' | 'TRANSFORM_FAILED';

/**
 * A value's verdict from the validation pool: it passed, failed (with its first violations, or
 * none when only the verdict was asked), or was over the validation budget (docs/security.md,
 * "Validation budget") and could not be judged.
 */
export type ValueVerdict =
  | { readonly kind: 'pass' }
  | { readonly kind: 'fail'; readonly violations: readonly Violation[] }
  | { readonly kind: 'over_budget'; readonly reason: string };
