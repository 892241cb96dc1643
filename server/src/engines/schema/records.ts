import type { OperationState } from '../operations/types.js';
import type { KeyedViolation, PolicyMode } from './core/index.js';

/**
 * The schema engine's records as callers see them (DESIGN.md §3, Schema). Times are epoch ms;
 * tree ids are tenant-local names. The transport binding converts them to the wire.
 */

/** A tree's stored policy with its authorship. */
export interface StoredPolicy {
  jsonSchema: string;
  mode: PolicyMode;
  version: number;
  description: string;
  updatedAt: number;
  updatedBy: string;
}

/** Why a value was set aside (the wire enum's names). */
export type DeadLetterReason =
  'SCHEMA_VIOLATION' | 'MIGRATION_FAILED' | 'TRANSFORM_FAILED' | 'OVER_QUOTA' | 'CROSS_TENANT';

/** A value set aside instead of written. */
export interface DeadLetter {
  key: string;
  valueJson: string;
  reason: DeadLetterReason;
  errors: string[];
  sourceOperationId: string | null;
  schemaVersion: number;
  deadLetteredAt: number;
}

/** The report of a remediation or migration run (running or finished). */
export interface RemediationReport {
  treeId: string;
  state: OperationState;
  scanned: number;
  alreadyCompliant: number;
  transformed: number;
  deadLettered: number;
  failed: number;
  fromVersion: number;
  toVersion: number;
  startedAt: number;
  finishedAt: number | null;
  operationId: string | null;
}

/** The report of a compliance scan. */
export interface ComplianceReport {
  treeId: string;
  policyVersion: number;
  scanned: number;
  compliant: number;
  nonCompliant: number;
  violations: KeyedViolation[];
  scannedAt: number;
}

/**
 * What a paged run needs of its caller: the runner's context for tracked runs, a plain one for
 * the blocking RPCs (which run the same code inline).
 */
export interface RunControl<TCheckpoint> {
  readonly operationId: string | null;
  readonly createdBy: string;
  readonly signal: AbortSignal | undefined;
  throwIfCancelled(): void;
  progress(done: number, total: number): void;
  checkpoint(value: TCheckpoint): Promise<void>;
  readonly checkpointValue: TCheckpoint | undefined;
}

/** A control for a blocking run: no operation, no checkpoints, never cancelled. */
export function inlineControl<T>(createdBy: string): RunControl<T> {
  return {
    operationId: null,
    createdBy,
    signal: undefined,
    throwIfCancelled() {},
    progress() {},
    checkpoint: async () => {},
    checkpointValue: undefined,
  };
}
