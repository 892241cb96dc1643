import { describe, expect, it } from 'vitest';
import { prefixEnd } from './tree-db.js';

/** UTF-8 byte order, as both databases compare keys. */
const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('prefixEnd', () => {
  it('raises the last code point by one, past the surrogates, and drops trailing U+10FFFF', () => {
    expect(prefixEnd('k031')).toBe('k032');
    expect(prefixEnd('a%')).toBe('a&');
    expect(prefixEnd('é')).toBe('ê');
    expect(prefixEnd('a\u{1F600}')).toBe('a\u{1F601}');
    expect(prefixEnd('a\uD7FF')).toBe('a\uE000');
    expect(prefixEnd('ab\u{10FFFF}')).toBe('ac');
    expect(prefixEnd('\u{10FFFF}\u{10FFFF}')).toBeUndefined();
  });

  it('is after every key under the prefix and not after any key past it, in byte order', () => {
    const prefixes = ['k031', 'a\uD7FF', 'é', 'z\u{10FFFF}', 'a\u{1F600}'];
    for (const prefix of prefixes) {
      const end = prefixEnd(prefix) ?? '';
      const under = [prefix, `${prefix}\0`, `${prefix}\u{10FFFF}\u{10FFFF}`, `${prefix}zzz`];
      for (const key of under) expect(byteOrder(key, end), `${key} < end`).toBeLessThan(0);
      const points = [...prefix];
      const last = points.pop()?.codePointAt(0) ?? 0;
      if (last < 0x10ffff) {
        const next = String.fromCodePoint(last + 1 === 0xd800 ? 0xe000 : last + 1);
        expect(byteOrder(points.join('') + next, end)).toBe(0);
      }
    }
  });
});
