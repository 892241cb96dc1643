import {
  applyTransform,
  formatTransformFailure,
  formatViolation,
  type RemediationDecision,
  type ValueTransform,
} from './core/index.js';
import type { SchemaEngine } from './schema-engine.js';

/**
 * core.decideRemediation for a page of values, judged in the validation pool in two round trips
 * (the values, then the transformed failing ones): passing values are left alone, failing ones
 * transformed, and dead-lettered if that does not fix them. A value over the validation budget
 * cannot be shown to pass: it is dead-lettered (SCHEMA_VIOLATION) with the budget as its error,
 * where a replay can bring it back once the value or the policy is lighter.
 */
export async function decideRemediations(
  engine: SchemaEngine,
  target: { tenant: string; jsonSchema: string },
  transform: ValueTransform,
  values: readonly unknown[],
): Promise<RemediationDecision[]> {
  const first = await engine.validateMany({ ...target, detail: 'verdict' }, values);
  const decisions: RemediationDecision[] = new Array<RemediationDecision>(values.length);
  const fixed: Array<{ index: number; value: unknown }> = [];
  first.forEach((verdict, index) => {
    if (verdict.kind === 'pass') decisions[index] = { kind: 'already_compliant' };
    else if (verdict.kind === 'over_budget') decisions[index] = overBudget(verdict.reason);
    else {
      const result = applyTransform(values[index], transform);
      if (result.ok) fixed.push({ index, value: result.value });
      else {
        decisions[index] = {
          kind: 'dead_letter',
          reason: 'TRANSFORM_FAILED',
          errors: [formatTransformFailure(result)],
        };
      }
    }
  });
  const second = await engine.validateMany(
    { ...target, detail: 'violations' },
    fixed.map((item) => item.value),
  );
  second.forEach((verdict, at) => {
    const { index, value } = fixed[at]!;
    if (verdict.kind === 'pass') decisions[index] = { kind: 'transformed', value };
    else if (verdict.kind === 'over_budget') decisions[index] = overBudget(verdict.reason);
    else {
      decisions[index] = {
        kind: 'dead_letter',
        reason: 'SCHEMA_VIOLATION',
        errors: verdict.violations.map(formatViolation),
      };
    }
  });
  return decisions;
}

function overBudget(reason: string): RemediationDecision {
  return { kind: 'dead_letter', reason: 'SCHEMA_VIOLATION', errors: [`(root): ${reason}`] };
}
