import { firstViolations, formatViolation, type PolicyValidator } from './policy-compiler.js';
import type { ValueTransform } from './types.js';
import { applyTransform, formatTransformFailure } from './value-transform.js';

/** What remediation does with one value. */
export type RemediationDecision =
  | { readonly kind: 'already_compliant' }
  | { readonly kind: 'transformed'; readonly value: unknown }
  | {
      readonly kind: 'dead_letter';
      readonly reason: 'TRANSFORM_FAILED' | 'SCHEMA_VIOLATION';
      readonly errors: string[];
    };

/** Leave a passing value alone, transform a failing one, and dead-letter it if that does not fix it. */
export function decideRemediation(
  value: unknown,
  transform: ValueTransform,
  targetPolicy: PolicyValidator,
): RemediationDecision {
  // Values that already pass are never rewritten, so a transform cannot damage good data.
  if (targetPolicy.isValid(value)) return { kind: 'already_compliant' };
  const result = applyTransform(value, transform);
  if (!result.ok) {
    return {
      kind: 'dead_letter',
      reason: 'TRANSFORM_FAILED',
      errors: [formatTransformFailure(result)],
    };
  }
  const violations = firstViolations(targetPolicy, result.value);
  if (violations.length > 0) {
    return {
      kind: 'dead_letter',
      reason: 'SCHEMA_VIOLATION',
      errors: violations.map(formatViolation),
    };
  }
  return { kind: 'transformed', value: result.value };
}
