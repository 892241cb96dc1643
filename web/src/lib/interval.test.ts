import { describe, expect, it } from 'vitest';
import {
  describeEffectiveInterval,
  formatInterval,
  parseInterval,
  splitInterval,
} from './interval';

describe('parseInterval', () => {
  it('turns a whole number and a unit into milliseconds', () => {
    expect(parseInterval('10', 'seconds')).toEqual({ ok: true, ms: 10_000 });
    expect(parseInterval(' 2 ', 'hours')).toEqual({ ok: true, ms: 7_200_000 });
    expect(parseInterval('365', 'days')).toEqual({ ok: true, ms: 365 * 86_400_000 });
  });

  it.each([
    ['', 'Enter an interval.'],
    ['abc', 'Enter a whole number.'],
    ['1.5', 'Enter a whole number.'],
    ['-3', 'Enter a whole number.'],
    ['0', 'The interval must be greater than zero.'],
  ])('refuses %j', (text, error) => {
    expect(parseInterval(text, 'minutes')).toEqual({ ok: false, error });
  });

  it('refuses more than a year', () => {
    expect(parseInterval('366', 'days')).toEqual({
      ok: false,
      error: 'The interval must be at most 365 days.',
    });
  });
});

describe('describeEffectiveInterval', () => {
  it('says what an interval was clamped to', () => {
    expect(describeEffectiveInterval(10_000, 60_000)).toBe(
      "Clamped to 1 minute: the requested 10 seconds is below the server's minimum interval.",
    );
  });

  it('confirms an interval kept as requested', () => {
    expect(describeEffectiveInterval(120_000, 120_000)).toBe('Runs every 2 minutes, as requested.');
  });
});

describe('formatInterval and splitInterval', () => {
  it('write an interval exactly in its largest unit', () => {
    expect(formatInterval(60_000)).toBe('1 minute');
    expect(formatInterval(90_000)).toBe('90 seconds');
    expect(formatInterval(2 * 86_400_000)).toBe('2 days');
    expect(formatInterval(1_500)).toBe('1500 ms');
    expect(splitInterval(7_200_000)).toEqual({ amount: '2', unit: 'hours' });
    expect(splitInterval(90_000)).toEqual({ amount: '90', unit: 'seconds' });
  });
});
