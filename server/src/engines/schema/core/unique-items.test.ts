import { describe, expect, it } from 'vitest';
import { compileSchema } from './policy-compiler.js';

const UNIQUE = compileSchema('{"type": "array", "uniqueItems": true}');

describe('uniqueItems in linear time', () => {
  it('compares items as JSON: numbers by value, objects whatever their key order', () => {
    expect(UNIQUE.isValid([1, 1.0])).toBe(false);
    expect(
      UNIQUE.isValid([
        { a: 1, b: [2] },
        { b: [2], a: 1 },
      ]),
    ).toBe(false);
    expect(UNIQUE.isValid(['1', 1, true, 'true', null, 'null'])).toBe(true);
    expect(UNIQUE.isValid([[1, 2], [2, 1], { a: 1 }, { a: '1' }])).toBe(true);
    expect(UNIQUE.isValid([])).toBe(true);
    expect(compileSchema('{"uniqueItems": false}').isValid([1, 1])).toBe(true);
  });

  it("keeps Ajv's error: the last item that repeats an earlier one, and its nearest copy", () => {
    expect(UNIQUE.validate([{ x: 1 }, 'a', { x: 1 }, 'b', 'a'])).toEqual([
      { path: '', message: 'must NOT have duplicate items (items ## 1 and 4 are identical)' },
    ]);
    const nested = compileSchema(
      '{"properties": {"tags": {"uniqueItems": true}}, "required": ["tags"]}',
    );
    expect(nested.explain({ tags: [3, 2, 3] })).toEqual([
      {
        path: '/tags',
        keyword: 'uniqueItems',
        message: 'must NOT have duplicate items (items ## 0 and 2 are identical)',
      },
    ]);
  });

  it('judges 20 000 object items in linear time', () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `item ${i}` }));
    const started = performance.now();
    expect(UNIQUE.isValid(items)).toBe(true);
    expect(UNIQUE.isValid([...items, { name: 'item 7', id: 7 }])).toBe(false);
    // Ajv's pairwise loop took seconds here (200 million comparisons); generous for shared CI.
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
