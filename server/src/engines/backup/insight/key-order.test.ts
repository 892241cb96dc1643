import { describe, expect, it } from 'vitest';
import { compareKeys } from './key-order.js';

describe('compareKeys', () => {
  it('orders keys as the databases do (UTF-8 bytes), not as JavaScript compares strings', () => {
    const keys = [
      'b',
      'a',
      '\uE000',
      '\u{1F600}',
      '\uFFFF',
      'ab',
      '',
      '\u00e9',
      'a\u{10000}',
      'a\uFFFD',
    ];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...keys].sort(compareKeys)).toEqual(byBytes);
    // The case JavaScript's own order gets wrong.
    expect('\u{1F600}' < '\uE000').toBe(true);
    expect(compareKeys('\u{1F600}', '\uE000')).toBeGreaterThan(0);
  });
});
