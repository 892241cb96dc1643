import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.js';
import {
  MAX_POLICY_SCHEMA_BYTES,
  MAX_POLICY_SCHEMA_DEPTH,
  compileSchema,
} from './policy-compiler.js';

function refusal(jsonSchema: string): StoreError {
  try {
    compileSchema(jsonSchema);
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected InvalidArgument');
}

describe('patterns run on a linear-time engine', () => {
  it('pattern and patternProperties keep their JSON Schema meaning (unanchored search)', () => {
    const validator = compileSchema(
      JSON.stringify({
        type: 'object',
        properties: { code: { type: 'string', pattern: '^[A-Z]{3}-\\d+$' } },
        patternProperties: { '^x-': { type: 'number' } },
        additionalProperties: { type: 'string', pattern: 'needle' },
      }),
    );
    expect(validator.isValid({ code: 'ABC-12', 'x-n': 1, other: 'a needle here' })).toBe(true);
    expect(validator.isValid({ code: 'ab-12' })).toBe(false);
    expect(validator.isValid({ 'x-n': 'not a number' })).toBe(false);
    expect(validator.isValid({ other: 'no match' })).toBe(false);
  });

  it('reads ECMAScript \\u escapes and distinguishes two patterns (Ajv keys them by text)', () => {
    const validator = compileSchema(
      JSON.stringify({
        type: 'array',
        prefixItems: [{ pattern: '^\\u0041$' }, { pattern: '^\\u{1F600}$' }, { pattern: '^b$' }],
      }),
    );
    expect(validator.isValid(['A', '😀', 'b'])).toBe(true);
    expect(validator.isValid(['B', '😀', 'b'])).toBe(false);
    expect(validator.isValid(['A', '😀', 'A'])).toBe(false);
  });

  // Its timing, against V8's backtracking, is test/schema-redos.test.ts: here a backtracking
  // engine would not fail, it would hang the worker.
  it('gives nested quantifiers their meaning ("^(a+)+$")', () => {
    const validator = compileSchema(JSON.stringify({ type: 'string', pattern: '^(a+)+$' }));
    expect(validator.isValid('aaaa')).toBe(true);
    expect(validator.isValid('aa!')).toBe(false);
  });

  it('refuses lookaround and backreferences with InvalidArgument naming the pattern', () => {
    for (const pattern of ['^(?=a)a$', '(a)\\1', '(?<!x)y']) {
      const error = refusal(JSON.stringify({ type: 'string', pattern }));
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toContain(JSON.stringify(pattern));
      expect(error.message).toContain('linear-time');
    }
  });
});

describe('policy schema caps', () => {
  it(`refuses a schema over ${MAX_POLICY_SCHEMA_BYTES} bytes with InvalidArgument`, () => {
    const big = JSON.stringify({ description: 'x'.repeat(MAX_POLICY_SCHEMA_BYTES) });
    const error = refusal(big);
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toMatch(/at most 262144/);
  });

  it(`refuses a schema nested deeper than ${MAX_POLICY_SCHEMA_DEPTH} levels, accepts one at it`, () => {
    const nested = (levels: number) => {
      let schema: unknown = { type: 'string' };
      for (let i = 1; i < levels; i++) schema = { items: schema };
      return JSON.stringify(schema);
    };
    expect(() => compileSchema(nested(MAX_POLICY_SCHEMA_DEPTH))).not.toThrow();
    const error = refusal(nested(MAX_POLICY_SCHEMA_DEPTH + 1));
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toContain(`deeper than ${MAX_POLICY_SCHEMA_DEPTH}`);
  });
});
