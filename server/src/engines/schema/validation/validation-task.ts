import type { KeywordViolation } from '../core/index.js';

/**
 * What the validation worker is asked and answers (the message between the pool and its
 * threads; docs/security.md, "Validation budget").
 */

/** How much a caller needs to know about each value. */
export type ValidationDetail = 'verdict' | 'violations';

export interface ValidationTask {
  readonly jsonSchema: string;
  /** The request field a refused schema is reported against. */
  readonly field: string;
  readonly values: readonly unknown[];
  readonly detail: ValidationDetail;
  /** Most violations copied out per value. */
  readonly limit: number;
  /** Int32 cells shared with the pool; see PROGRESS_*. */
  readonly progress: SharedArrayBuffer;
}

// Cell 0 holds what the worker is doing: WAITING until it starts, COMPILING, then the index of
// the value in progress; cell 1 + i holds value i's verdict once known (PASSED or FAILED).
export const PROGRESS_WAITING = -2;
export const PROGRESS_COMPILING = -1;
export const VERDICT_PASSED = 1;
export const VERDICT_FAILED = 2;

/** One value's answer from the worker: undefined violations means it passed. */
export type WorkerVerdict = { readonly violations?: readonly KeywordViolation[] };

export type ValidationReply =
  | { readonly kind: 'judged'; readonly schemaHash: string; readonly verdicts: WorkerVerdict[] }
  | { readonly kind: 'refused'; readonly field: string; readonly message: string };
