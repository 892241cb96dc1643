import { describe, expect, it } from 'vitest';
import { exampleTransform, GENERIC_TRANSFORM } from './example-transform';
import { parsePatch } from './json-patch';

describe('the remediation transform a form starts with', () => {
  it('adds what the policy requires, with a value each property’s schema accepts', () => {
    const schema = JSON.stringify({
      type: 'object',
      required: ['name', 'age', 'a/b', 'ignored'],
      properties: {
        name: { type: 'string', minLength: 2 },
        age: { type: 'integer', minimum: 18 },
        'a/b': { enum: ['red', 'green'] },
      },
    });
    const text = exampleTransform(schema);
    expect(JSON.parse(text)).toEqual([
      { op: 'add', path: '/name', value: 'xx' },
      { op: 'add', path: '/age', value: 18 },
      { op: 'add', path: '/a~1b', value: 'red' },
    ]);
    // A patch the form (and the server's transform check, the same rules) accepts as it is.
    const checked = parsePatch(text);
    expect(checked.ok).toBe(true);
    if (checked.ok) expect(checked.ops.map((op) => op.valueJson)).toEqual(['"xx"', '18', '"red"']);
  });

  it('prefers the property’s default and const, and types without one get an empty value', () => {
    const schema = JSON.stringify({
      required: ['status', 'kind', 'tags', 'ok'],
      properties: {
        status: { type: 'string', default: 'new' },
        kind: { const: 'order' },
        tags: { type: 'array' },
        ok: { type: 'boolean' },
      },
    });
    expect(JSON.parse(exampleTransform(schema))).toEqual([
      { op: 'add', path: '/status', value: 'new' },
      { op: 'add', path: '/kind', value: 'order' },
      { op: 'add', path: '/tags', value: [] },
    ]);
  });

  it('falls back to a generic example without a policy or a required property', () => {
    expect(exampleTransform(undefined)).toBe(GENERIC_TRANSFORM);
    expect(exampleTransform('{"type":"object"}')).toBe(GENERIC_TRANSFORM);
    expect(exampleTransform('{not json')).toBe(GENERIC_TRANSFORM);
    expect(parsePatch(GENERIC_TRANSFORM).ok).toBe(true);
  });
});
