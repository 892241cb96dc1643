import { describe, expect, it } from 'vitest';
import { overLengthError } from './length-limit';

describe('overLengthError', () => {
  it('is undefined up to the limit and names both numbers past it', () => {
    expect(overLengthError('a'.repeat(128), 128, 'A tree name')).toBeUndefined();
    expect(overLengthError('a'.repeat(175), 128, 'A tree name')).toBe(
      'A tree name holds at most 128 characters; this one has 175 (nothing was cut)',
    );
  });

  it('counts characters, not UTF-16 units', () => {
    expect(overLengthError('😀'.repeat(3), 3, 'A note')).toBeUndefined();
  });
});
