import { describe, expect, it } from 'vitest';
import { momentWords, nameList, quoted } from './words.js';

describe('server message words', () => {
  it('a moment is day, month, year and time in UTC, labelled, never an ISO stamp', () => {
    const at = Date.UTC(2026, 10, 25, 10, 0, 30);
    expect(momentWords(at)).toBe('25 Nov 2026, 10:00 UTC');
    expect(momentWords(at)).not.toContain('T10');
    expect(momentWords(Date.UTC(2026, 0, 5, 23, 59))).toBe('5 Jan 2026, 23:59 UTC');
  });

  it('names are quoted and listed in words, long lists cut with a count', () => {
    expect(quoted('full 3')).toBe('“full 3”');
    expect(nameList([])).toBe('');
    expect(nameList(['a'])).toBe('“a”');
    expect(nameList(['a', 'b'])).toBe('“a” and “b”');
    expect(nameList(['a', 'b', 'c'])).toBe('“a”, “b” and “c”');
    expect(nameList(['a', 'b', 'c', 'd', 'e'])).toBe('“a”, “b”, “c” and 2 more');
  });
});
