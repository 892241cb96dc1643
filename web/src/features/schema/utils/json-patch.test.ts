import { describe, expect, it } from 'vitest';
import { describeOp, formatPatch, parsePatch } from './json-patch';

describe('parsePatch', () => {
  it('turns an RFC 6902 array into wire ops with the value as JSON text', () => {
    const result = parsePatch(
      '[{"op":"add","path":"/tags","value":["a"]},{"op":"move","from":"/a","path":"/b"},{"op":"remove","path":"/x"}]',
    );
    expect(result).toEqual({
      ok: true,
      ops: [
        { op: 'add', path: '/tags', valueJson: '["a"]' },
        { op: 'move', path: '/b', from: '/a' },
        { op: 'remove', path: '/x' },
      ],
    });
  });

  it('names the operation and the field that is wrong', () => {
    expect(parsePatch('[{"op":"rename","path":"/a"}]')).toMatchObject({
      ok: false,
      message: expect.stringContaining('Operation 1: "op" must be one of') as unknown,
    });
    expect(parsePatch('[{"op":"remove","path":"/a"},{"op":"copy","path":"/b"}]')).toEqual({
      ok: false,
      message: 'Operation 2: "copy" needs "from", a JSON Pointer',
    });
    expect(parsePatch('[{"op":"replace","path":"/a"}]')).toEqual({
      ok: false,
      message: 'Operation 1: "replace" needs "value"',
    });
    expect(parsePatch('[{"op":"add","path":"a","value":1}]')).toMatchObject({
      ok: false,
      message: expect.stringContaining('"path" must be a JSON Pointer') as unknown,
    });
    expect(parsePatch('[{"op":"move","from":"/a","path":"/a/b"}]')).toEqual({
      ok: false,
      message: 'Operation 1: cannot move a value into one of its own children',
    });
  });

  it('reports JSON syntax with its position and refuses a non-array', () => {
    expect(parsePatch('[{"op": "add",}]')).toEqual({
      ok: false,
      message: "Line 1, column 15: expected a property name in double quotes, found '}'",
    });
    expect(parsePatch('{"op":"add"}')).toMatchObject({ ok: false });
  });

  it('accepts null as a value and a pointer with escapes', () => {
    expect(parsePatch('[{"op":"add","path":"/a~1b/~0c","value":null}]')).toEqual({
      ok: true,
      ops: [{ op: 'add', path: '/a~1b/~0c', valueJson: 'null' }],
    });
    expect(parsePatch('[{"op":"add","path":"/a~2","value":1}]').ok).toBe(false);
  });

  it('formats wire ops back to the editor text it parses from', () => {
    const text =
      '[{"op":"replace","path":"/n","value":{"x":1}},{"op":"copy","from":"/n","path":"/m"}]';
    const parsed = parsePatch(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(JSON.parse(formatPatch(parsed.ops))).toEqual(JSON.parse(text));
    expect(parsed.ops.map(describeOp)).toEqual(['replace /n {"x":1}', 'copy /n → /m']);
  });
});
