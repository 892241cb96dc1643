import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.js';
import { compileSchema } from './policy-compiler.js';
import { MAX_POLICY_SCHEMA_BRANCHES, MAX_POLICY_SCHEMA_EXPANDED } from './schema-limits.js';

/** The review's reference bomb: each definition allOf-s two references to the previous one. */
function referenceBomb(levels: number, keyword: '$ref' | '$dynamicRef' = '$ref'): string {
  const defs: Record<string, unknown> = { d0: { type: 'integer' } };
  for (let i = 1; i <= levels; i++) {
    const previous = { [keyword]: `#/$defs/d${i - 1}` };
    defs[`d${i}`] = { allOf: [previous, previous] };
  }
  return JSON.stringify({ $defs: defs, $ref: `#/$defs/d${levels}` });
}

/** The review's wide draft: `branches` allOf branches over the items of an array. */
function branchDraft(branches: number): string {
  return JSON.stringify({
    type: 'array',
    items: { allOf: Array.from({ length: branches }, (_, i) => ({ maximum: i })) },
  });
}

function refusal(jsonSchema: string): StoreError {
  try {
    compileSchema(jsonSchema, 'json_schema');
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected InvalidArgument');
}

describe('static limits on a policy schema', () => {
  it.each([28, 30, 48])('refuses the %i-level reference bomb, naming the expansion limit', (n) => {
    const started = Date.now();
    const error = refusal(referenceBomb(n));
    expect(error.code).toBe('invalid_argument');
    expect(error.field).toBe('json_schema');
    expect(error.message).toContain('expansion limit');
    expect(error.message).toContain(String(MAX_POLICY_SCHEMA_EXPANDED));
    // The walk is memoised: linear in the schema, not in its expansion.
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses the same bomb built from $dynamicRef', () => {
    expect(refusal(referenceBomb(30, '$dynamicRef')).message).toContain('expansion limit');
  });

  it('accepts a shallow chain whose expansion is within the limit', () => {
    expect(compileSchema(referenceBomb(10)).isValid(3)).toBe(true);
  });

  it('refuses the 12 000-branch draft, naming the branch limit', () => {
    const draft = branchDraft(12_000);
    expect(Buffer.byteLength(draft)).toBeLessThan(256 * 1024);
    const error = refusal(draft);
    expect(error.message).toContain('branch limit');
    expect(error.message).toContain(String(MAX_POLICY_SCHEMA_BRANCHES));
  });

  it('accepts a schema with many branches below the limit', () => {
    expect(compileSchema(branchDraft(300)).isValid([-1])).toBe(true);
  });

  it('accepts recursion through a child applicator (the value bounds it) and counts it once', () => {
    const tree = JSON.stringify({
      $defs: {
        node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/node' } },
          },
          additionalProperties: { $ref: '#/$defs/node' },
        },
      },
      $ref: '#/$defs/node',
    });
    const validator = compileSchema(tree);
    expect(validator.isValid({ name: 'a', children: [{ name: 'b', children: [] }] })).toBe(true);
    expect(validator.isValid({ name: 'a', children: [{ name: 3 }] })).toBe(false);
  });

  it('refuses a reference cycle that only applies in place (infinite recursion)', () => {
    const loop = JSON.stringify({
      $defs: { a: { allOf: [{ $ref: '#/$defs/b' }] }, b: { anyOf: [{ $ref: '#/$defs/a' }] } },
      $ref: '#/$defs/a',
    });
    expect(refusal(loop).message).toContain('$ref cycle that applies in place');
    expect(refusal('{"$ref": "#"}').message).toContain('$ref cycle that applies in place');
  });

  it('follows $id-relative references and $anchor names', () => {
    const defs: Record<string, unknown> = { d0: { $anchor: 'd0', type: 'integer' } };
    for (let i = 1; i <= 30; i++) {
      defs[`d${i}`] = { $anchor: `d${i}`, anyOf: [{ $ref: `#d${i - 1}` }, { $ref: `#d${i - 1}` }] };
    }
    const anchored = { $id: 'https://example.com/s.json', $defs: defs, $ref: '#d30' };
    expect(refusal(JSON.stringify(anchored)).message).toContain('expansion limit');
  });
});
