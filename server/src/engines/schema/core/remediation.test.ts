import { describe, expect, it } from 'vitest';
import { compileSchema } from './policy-compiler.js';
import { decideRemediation } from './remediation.js';
import type { ValueTransform } from './types.js';

const policy = compileSchema(
  JSON.stringify({
    type: 'object',
    properties: { age: { type: 'integer' } },
    required: ['age'],
  }),
);

// Fixes values that store the age under the old name.
const renameAge: ValueTransform = { ops: [{ op: 'move', from: '/years', path: '/age' }] };

describe('decideRemediation', () => {
  it('leaves a compliant value alone without applying the transform', () => {
    expect(decideRemediation({ age: 3 }, renameAge, policy)).toEqual({ kind: 'already_compliant' });
  });

  it('transforms a fixable value', () => {
    const input = { years: 4 };
    expect(decideRemediation(input, renameAge, policy)).toEqual({
      kind: 'transformed',
      value: { age: 4 },
    });
    expect(input).toEqual({ years: 4 });
  });

  it('dead-letters a value the transform cannot apply to as TRANSFORM_FAILED', () => {
    const decision = decideRemediation({ name: 'x' }, renameAge, policy);
    expect(decision).toMatchObject({ kind: 'dead_letter', reason: 'TRANSFORM_FAILED' });
    if (decision.kind === 'dead_letter') {
      expect(decision.errors).toEqual([
        'transform op 0 (move /age): from does not exist in the value',
      ]);
    }
  });

  it('dead-letters a value that still fails the policy as SCHEMA_VIOLATION', () => {
    const decision = decideRemediation({ years: 'four' }, renameAge, policy);
    expect(decision).toEqual({
      kind: 'dead_letter',
      reason: 'SCHEMA_VIOLATION',
      errors: ['/age: must be integer'],
    });
  });
});
