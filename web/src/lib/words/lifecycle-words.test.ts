import { KeepReasonKind } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { keepReasonPhrase, keepReasonWords } from './lifecycle-words';

describe('keep reasons in words', () => {
  it('says each reason once: the text capitalised, not the kind and then the text', () => {
    expect(keepReasonPhrase({ kind: KeepReasonKind.LAST, text: 'last 1 of 2' })).toEqual({
      words: 'Last 1 of 2',
      raw: 'LAST',
    });
    expect(
      keepReasonPhrase({ kind: KeepReasonKind.BASE, text: 'base of inventory incr 3' }).words,
    ).toBe('Base of inventory incr 3');
  });

  it('falls back to the kind label when the server sent no text', () => {
    expect(keepReasonPhrase({ kind: KeepReasonKind.DAILY, text: ' ' })).toEqual({
      words: 'Daily',
      raw: 'DAILY',
    });
  });

  it('has a label for every keep reason kind, proof of restorability included', () => {
    for (const kind of Object.values(KeepReasonKind).filter(
      (v): v is KeepReasonKind => typeof v === 'number' && v !== KeepReasonKind.UNSPECIFIED,
    )) {
      expect(keepReasonWords(kind).words).not.toBe('Kept');
    }
    expect(keepReasonWords(KeepReasonKind.PROVEN_RESTORABLE).words).toBe('Proven restorable');
  });
});
