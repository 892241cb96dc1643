import { describe, expect, it } from 'vitest';
import {
  MAX_JSON_DEPTH,
  canonicalJson,
  canonicalJsonOfParsed,
  canonicaliseJsonText,
} from './canonical-json.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and drops whitespace', () => {
    const text = '{ "b": 1, "a": [ { "d": 2, "c": { "z": null, "y": true } } ] }';
    expect(canonicaliseJsonText(text).canonical).toBe(
      '{"a":[{"c":{"y":true,"z":null},"d":2}],"b":1}',
    );
  });

  it('gives equal values the same text whatever their key order', () => {
    expect(canonicalJson({ x: 1, y: { b: 2, a: 1 } })).toBe(
      canonicalJson({ y: { a: 1, b: 2 }, x: 1 }),
    );
  });

  it('orders integer-like keys as text, not first as JSON.stringify would', () => {
    expect(canonicalJson({ b: 1, 10: 2, 9: 3 })).toBe('{"10":2,"9":3,"b":1}');
  });

  it('keeps array order and scalars as JSON.stringify writes them', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson('é\n"')).toBe(JSON.stringify('é\n"'));
    expect(canonicalJson(1e21)).toBe('1e+21');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicaliseJsonText('1E2').canonical).toBe('100');
  });

  it('follows JSON.stringify for undefined, functions, non-finite numbers and toJSON', () => {
    expect(canonicalJson({ a: undefined, b: () => 1, c: 1 })).toBe('{"c":1}');
    expect(canonicalJson([undefined, Number.NaN])).toBe('[null,null]');
    // eslint-disable-next-line no-sparse-arrays -- a hole is what is being tested
    expect(canonicalJson([1, , 2])).toBe(JSON.stringify([1, , 2]));
    expect(canonicalJson({ d: new Date(0) })).toBe('{"d":"1970-01-01T00:00:00.000Z"}');
    expect(() => canonicalJson(undefined)).toThrow(TypeError);
  });

  it('keeps a "__proto__" member as an ordinary key', () => {
    expect(canonicaliseJsonText('{"__proto__":{"x":1},"a":0}').canonical).toBe(
      '{"__proto__":{"x":1},"a":0}',
    );
  });

  it('refuses values nested deeper than the limit with a RangeError', () => {
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => canonicaliseJsonText(deep)).toThrow(RangeError);
    const ok = `${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`;
    expect(canonicaliseJsonText(ok).canonical).toBe(ok);
  });

  it('the fast path for parsed values gives exactly the hand-built text, in order or not', () => {
    const texts = [
      '{"a":1,"b":{"c":[1,{"d":2,"e":"x"}]}}',
      '{"b":1,"a":2}',
      '{"10":1,"9":2,"b":3}',
      '{"1":1,"2":2,"a":3}',
      '{"a":{"z":1,"y":2},"b":[]}',
      '{"__proto__":{"x":1},"a":0}',
      '{"é":1,"e":2,"E":3}',
      '[{"b":1,"a":2},{"a":1}]',
      '{"n":1E2,"m":-0,"s":"\\u00e9\\n"}',
      '"text"',
      'null',
    ];
    for (const text of texts) {
      const value: unknown = JSON.parse(text);
      expect(canonicalJsonOfParsed(value), text).toBe(canonicalJson(value));
    }
    const deep = `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`;
    expect(() => canonicalJsonOfParsed(JSON.parse(deep))).toThrow(RangeError);
  });
});
