import { describe, expect, it } from 'vitest';
import { entryCountWords, sequenceRangeRaw, sequenceRangeWords } from './manifest-words';

describe('manifest facts in words', () => {
  it('says a sequence range as the changes it holds', () => {
    expect(sequenceRangeWords(3084n, 3087n)).toBe('changes after sequence 3,084 up to 3,087');
    expect(sequenceRangeWords(0n, 3087n)).toBe('every change up to sequence 3,087');
    expect(sequenceRangeWords(42n, 42n)).toBe('no change after sequence 42');
    expect(sequenceRangeRaw(3084n, 3087n)).toBe('(3084, 3087]');
  });

  it('counts entries with the deletions among them', () => {
    expect(entryCountWords(3n, 3n)).toBe('3 entries, of which 3 deletions');
    expect(entryCountWords(1200n, 1n)).toBe('1,200 entries, of which 1 deletion');
    expect(entryCountWords(1n, 0n)).toBe('1 entry');
    expect(entryCountWords(0n, 0n)).toBe('0 entries');
  });
});
