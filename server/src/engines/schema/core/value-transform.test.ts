import { describe, expect, it } from 'vitest';
import { StoreError } from '../../errors.js';
import type { JsonPatchOperation } from './types.js';
import { applyTransform, formatTransformFailure, validateTransform } from './value-transform.js';

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof StoreError && error.code === 'invalid_argument') return error.field;
    throw error;
  }
  throw new Error('expected InvalidArgument');
}

const transformOf = (...ops: JsonPatchOperation[]) => ({ ops });

describe('applyTransform', () => {
  const base = { name: 'a', tags: ['x', 'y'], meta: { n: 1 } };

  it.each([
    ['add a member', { op: 'add', path: '/age', valueJson: '3' }, { ...base, age: 3 }],
    [
      'add to an array',
      { op: 'add', path: '/tags/1', valueJson: '"z"' },
      { ...base, tags: ['x', 'z', 'y'] },
    ],
    [
      'append with -',
      { op: 'add', path: '/tags/-', valueJson: '"z"' },
      { ...base, tags: ['x', 'y', 'z'] },
    ],
    ['remove', { op: 'remove', path: '/meta' }, { name: 'a', tags: ['x', 'y'] }],
    ['replace', { op: 'replace', path: '/name', valueJson: '"b"' }, { ...base, name: 'b' }],
    ['replace the root', { op: 'replace', path: '', valueJson: '{"v":1}' }, { v: 1 }],
    [
      'move',
      { op: 'move', from: '/meta/n', path: '/count' },
      { name: 'a', tags: ['x', 'y'], meta: {}, count: 1 },
    ],
    ['copy', { op: 'copy', from: '/name', path: '/alias' }, { ...base, alias: 'a' }],
    ['pass a test', { op: 'test', path: '/meta', valueJson: '{"n":1}' }, base],
  ])('applies %s', (_label, op, expected) => {
    const result = applyTransform(base, transformOf(op as JsonPatchOperation));
    expect(result).toEqual({ ok: true, value: expected });
  });

  it('applies ops in order, each seeing the previous result', () => {
    const result = applyTransform(
      { a: 1 },
      transformOf(
        { op: 'copy', from: '/a', path: '/b' },
        { op: 'replace', path: '/a', valueJson: '2' },
        { op: 'test', path: '/b', valueJson: '1' },
      ),
    );
    expect(result).toEqual({ ok: true, value: { a: 2, b: 1 } });
  });

  it('returns a failure naming the op index when a test op fails', () => {
    const result = applyTransform(
      { v: 1 },
      transformOf(
        { op: 'replace', path: '/v', valueJson: '2' },
        { op: 'test', path: '/v', valueJson: '1' },
      ),
    );
    expect(result).toMatchObject({ ok: false, opIndex: 1, op: 'test', path: '/v' });
    if (result.ok) throw new Error('unreachable');
    expect(result.message).toMatch(/test failed/);
    expect(formatTransformFailure(result)).toBe(`transform op 1 (test /v): ${result.message}`);
  });

  it.each([
    ['remove of a missing member', { op: 'remove', path: '/missing' }],
    ['replace of a missing member', { op: 'replace', path: '/missing', valueJson: '1' }],
    ['add under a missing parent', { op: 'add', path: '/no/where', valueJson: '1' }],
    ['copy from a missing member', { op: 'copy', from: '/missing', path: '/b' }],
    ['copy to the root from a missing member', { op: 'copy', from: '/missing', path: '' }],
    ['an array index past the end', { op: 'add', path: '/list/5', valueJson: '1' }],
    ['a non-numeric array index', { op: 'replace', path: '/list/x', valueJson: '1' }],
    ['a path through a scalar', { op: 'add', path: '/a/b', valueJson: '1' }],
  ])('returns a failure, not a throw, for %s', (_label, op) => {
    const result = applyTransform({ a: 1, list: [0] }, transformOf(op as JsonPatchOperation));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.opIndex).toBe(0);
      // Messages name the problem without copying the document into them.
      expect(result.message).not.toContain('\n');
    }
  });

  it('never mutates the input value', () => {
    const input = { a: { b: [1, 2] }, c: 'x' };
    const snapshot = structuredClone(input);
    const result = applyTransform(
      input,
      transformOf(
        { op: 'add', path: '/a/b/-', valueJson: '3' },
        { op: 'remove', path: '/c' },
        { op: 'move', from: '/a/b', path: '/d' },
      ),
    );
    expect(result).toEqual({ ok: true, value: { a: {}, d: [1, 2, 3] } });
    expect(input).toEqual(snapshot);
    // A failing transform must not leave half-applied changes behind either.
    applyTransform(input, transformOf({ op: 'remove', path: '/c' }, { op: 'remove', path: '/zz' }));
    expect(input).toEqual(snapshot);
  });

  it('does not share op values between the values it transforms', () => {
    const transform = transformOf(
      { op: 'add', path: '/obj', valueJson: '{}' },
      { op: 'add', path: '/obj/mark', valueJson: 'true' },
    );
    const first = applyTransform({}, transform);
    const second = applyTransform({}, transform);
    expect(first).toEqual({ ok: true, value: { obj: { mark: true } } });
    expect(second).toEqual({ ok: true, value: { obj: { mark: true } } });
    if (first.ok && second.ok) expect(first.value).not.toBe(second.value);
  });
});

describe('validateTransform', () => {
  it('accepts every op kind when well formed', () => {
    expect(() =>
      validateTransform(
        transformOf(
          { op: 'add', path: '/a', valueJson: '1' },
          { op: 'remove', path: '/a' },
          { op: 'replace', path: '', valueJson: 'null' },
          { op: 'move', from: '/a', path: '/b' },
          { op: 'copy', from: '', path: '/b' },
          { op: 'test', path: '/a~0b~1c', valueJson: '[]' },
        ),
      ),
    ).not.toThrow();
  });

  it.each([
    ['an unknown op', [{ op: 'merge', path: '/a' }], 'transform.ops[0].op'],
    ['a path without a leading slash', [{ op: 'remove', path: 'a' }], 'transform.ops[0].path'],
    ['a path with a bad escape', [{ op: 'remove', path: '/a~2' }], 'transform.ops[0].path'],
    [
      'a path into __proto__',
      [{ op: 'add', path: '/__proto__/x', valueJson: '1' }],
      'transform.ops[0].path',
    ],
    [
      'move without from',
      [
        { op: 'remove', path: '/a' },
        { op: 'move', path: '/b' },
      ],
      'transform.ops[1].from',
    ],
    ['copy with a bad from', [{ op: 'copy', from: 'x', path: '/b' }], 'transform.ops[0].from'],
    [
      'a move into its own child',
      [{ op: 'move', from: '/a', path: '/a/b' }],
      'transform.ops[0].from',
    ],
    ['add without value_json', [{ op: 'add', path: '/a' }], 'transform.ops[0].value_json'],
    [
      'test with unparseable value_json',
      [
        { op: 'remove', path: '/a' },
        { op: 'remove', path: '/b' },
        { op: 'test', path: '/a', valueJson: '{oops' },
      ],
      'transform.ops[2].value_json',
    ],
  ])('names the field for %s', (_label, ops, field) => {
    expect(fieldOf(() => validateTransform({ ops: ops as JsonPatchOperation[] }))).toBe(field);
  });

  it('refuses a transform without an ops list', () => {
    expect(fieldOf(() => validateTransform({} as never))).toBe('transform.ops');
  });

  it('uses the caller-supplied field prefix', () => {
    expect(
      fieldOf(() =>
        validateTransform(transformOf({ op: 'x', path: '' }), 'config.migrations[0].transform'),
      ),
    ).toBe('config.migrations[0].transform.ops[0].op');
  });

  it('makes applyTransform throw InvalidArgument for an invalid transform', () => {
    expect(
      fieldOf(() => applyTransform({}, transformOf({ op: 'add', path: '/a', valueJson: '{bad' }))),
    ).toBe('transform.ops[0].value_json');
  });
});
