import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.js';
import {
  clearValidatorCache,
  compilePolicy,
  compileSchema,
  firstViolations,
  formatViolation,
} from './policy-compiler.js';

function caught(run: () => unknown): StoreError {
  try {
    run();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

const TUPLE_SCHEMA = JSON.stringify({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $defs: { name: { type: 'string', minLength: 1 } },
  type: 'object',
  properties: {
    name: { $ref: '#/$defs/name' },
    point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false },
  },
  required: ['name'],
  unevaluatedProperties: false,
});

describe('compileSchema', () => {
  it('accepts a 2020-12 schema using prefixItems, $defs and unevaluatedProperties', () => {
    const validator = compileSchema(TUPLE_SCHEMA);
    expect(validator.validate({ name: 'a', point: [1, 2] })).toEqual([]);
    expect(validator.isValid({ name: 'a', point: [1, 'x'] })).toBe(false);
    expect(validator.validate({ name: 'a', extra: true })).toEqual([
      { path: '', message: "must NOT have unevaluated properties: 'extra'" },
    ]);
  });

  it('tolerates unknown keywords and formats instead of refusing the schema', () => {
    const validator = compileSchema('{"type":"string","format":"x-phone","x-ui-widget":"text"}');
    expect(validator.isValid('not a phone')).toBe(true);
  });

  it('asserts a known format (policy-formats.test.ts covers each one)', () => {
    const validator = compileSchema('{"type":"string","format":"email"}');
    expect(validator.isValid('not-an-email')).toBe(false);
  });

  it('reports malformed JSON text as InvalidArgument with the parser message', () => {
    const error = caught(() => compileSchema('{"type": '));
    expect(error.code).toBe('invalid_argument');
    expect(error.field).toBe('policy.json_schema');
    let parserMessage = '';
    try {
      JSON.parse('{"type": ');
    } catch (e) {
      parserMessage = (e as Error).message;
    }
    expect(error.message).toContain(parserMessage);
  });

  it('reports a schema Ajv refuses as InvalidArgument with the compiler message', () => {
    const badType = caught(() => compileSchema('{"type":"strin"}'));
    expect(badType.code).toBe('invalid_argument');
    expect(badType.field).toBe('policy.json_schema');
    expect(badType.message).toContain(
      'schema is invalid: data/type must be equal to one of the allowed values',
    );

    const badRef = caught(() => compileSchema('{"$ref":"#/$defs/missing"}'));
    expect(badRef.message).toContain("can't resolve reference #/$defs/missing");
  });

  it('refuses JSON that is not a schema (null, numbers, strings)', () => {
    for (const text of ['null', '42', '"x"']) {
      expect(caught(() => compileSchema(text)).message).toContain(
        'schema must be object or boolean',
      );
    }
  });

  it('names the caller-supplied field in errors', () => {
    expect(caught(() => compileSchema('nope', 'target_policy.json_schema')).field).toBe(
      'target_policy.json_schema',
    );
  });

  it('returns the cached validator for the same schema text', () => {
    clearValidatorCache();
    const first = compileSchema('{"type":"number"}');
    expect(compileSchema('{"type":"number"}')).toBe(first);
    expect(compileSchema('{ "type": "number" }')).not.toBe(first);
  });

  it('compiles two different schemas that share an $id', () => {
    const a = compileSchema('{"$id":"https://example.com/s","type":"string"}');
    const b = compileSchema('{"$id":"https://example.com/s","type":"number"}');
    expect(a.isValid('x')).toBe(true);
    expect(b.isValid('x')).toBe(false);
  });
});

describe('violations', () => {
  it('gives JSON Pointer paths, escaping / and ~ in keys, and "" for the root', () => {
    const validator = compileSchema(
      JSON.stringify({
        type: 'object',
        properties: {
          'a/b': { type: 'string' },
          'c~d': { type: 'array', items: { type: 'integer' } },
        },
        required: ['id'],
      }),
    );
    const violations = validator.validate({ 'a/b': 1, 'c~d': [1, 2.5] });
    expect(violations).toContainEqual({ path: '', message: "must have required property 'id'" });
    expect(violations).toContainEqual({ path: '/a~1b', message: 'must be string' });
    expect(violations).toContainEqual({ path: '/c~0d/1', message: 'must be integer' });
  });

  it('adds the offending values to enum, const and additionalProperties messages', () => {
    const validator = compileSchema(
      JSON.stringify({
        properties: { e: { enum: ['x', 'y'] }, c: { const: 3 } },
        additionalProperties: { type: 'number' },
        propertyNames: { maxLength: 3 },
      }),
    );
    expect(compileSchema('{"additionalProperties":false}').validate({ z: 1 })).toEqual([
      { path: '', message: "must NOT have additional properties: 'z'" },
    ]);
    const messages = validator.validate({ e: 'q', c: 4 }).map((v) => v.message);
    expect(messages).toContain('must be equal to one of the allowed values: ["x","y"]');
    expect(messages).toContain('must be equal to constant: 3');
  });

  it('copies out at most DEFAULT_VIOLATION_LIMIT violations unless asked for more', () => {
    const validator = compileSchema('{"type":"array","items":{"type":"string"}}');
    const value = Array.from({ length: 150 }, (_, i) => i);
    expect(validator.validate(value)).toHaveLength(100);
    expect(validator.validate(value, 1000)).toHaveLength(150);
    expect(validator.explain(value, 2)).toHaveLength(2);
    expect(firstViolations(validator, value)).toHaveLength(100);
    expect(firstViolations(validator, value, 3).map((v) => v.path)).toEqual(['/0', '/1', '/2']);
  });

  it('formats a root violation as (root)', () => {
    expect(formatViolation({ path: '', message: 'must be object' })).toBe('(root): must be object');
    expect(formatViolation({ path: '/a', message: 'must be string' })).toBe('/a: must be string');
  });
});

describe('compilePolicy', () => {
  it('compiles a valid policy and keeps its mode and version', () => {
    const policy = compilePolicy({ jsonSchema: '{"type":"object"}', mode: 'AUDIT', version: 4 });
    expect(policy.mode).toBe('AUDIT');
    expect(policy.version).toBe(4);
    expect(policy.validator.isValid({})).toBe(true);
  });

  it('names the bad field of a policy', () => {
    const base = { jsonSchema: '{}', mode: 'ENFORCE' as const, version: 1 };
    expect(caught(() => compilePolicy({ ...base, mode: 'LOG' as never })).field).toBe(
      'policy.mode',
    );
    expect(caught(() => compilePolicy({ ...base, version: -1 })).field).toBe('policy.version');
    expect(caught(() => compilePolicy({ ...base, version: 2 ** 32 })).field).toBe('policy.version');
    expect(caught(() => compilePolicy({ ...base, jsonSchema: '' })).field).toBe(
      'policy.json_schema',
    );
  });
});
