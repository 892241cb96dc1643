import { describe, expect, it } from 'vitest';
import {
  estimateProgress,
  formatAmount,
  formatRate,
  formatRemaining,
  humanizeProgressMessage,
} from './estimate';

describe('estimateProgress', () => {
  it('gives the percent, the rate and the time left when the total is known', () => {
    expect(estimateProgress({ done: 2_500, total: 10_000, elapsedMs: 5_000 })).toEqual({
      percent: 25,
      perSecond: 500,
      remainingMs: 15_000,
    });
  });

  it('says nothing about rate before a second has passed, and no percent without a total', () => {
    expect(estimateProgress({ done: 10, total: 100, elapsedMs: 200 })).toEqual({
      percent: 10,
      perSecond: undefined,
      remainingMs: undefined,
    });
    expect(estimateProgress({ done: 10, total: 0, elapsedMs: 2_000 }).percent).toBeUndefined();
  });

  it('counts only what was done since the first sample (a bar opened mid-run)', () => {
    const estimate = estimateProgress({
      done: 600,
      doneAtStart: 400,
      total: 1_000,
      elapsedMs: 2_000,
    });
    expect(estimate.perSecond).toBe(100);
    expect(estimate.remainingMs).toBe(4_000);
  });

  it('never passes 100 %', () => {
    expect(estimateProgress({ done: 12, total: 10, elapsedMs: 0 }).percent).toBe(100);
  });
});

describe('human units', () => {
  it('writes bytes in KiB/MiB/GiB and rates per second', () => {
    expect(formatAmount(1_572_864, 'bytes')).toBe('1.5 MiB');
    expect(formatAmount(1_204, 'entries')).toMatch(/^1.204 entries$/);
    expect(formatRate(2_202_009.6, 'bytes')).toBe('2.1 MiB/s');
    expect(formatRate(410.4, 'entries')).toBe('410 entries/s');
    expect(formatRemaining(130_000)).toBe('about 2 min 10 s left');
    expect(formatRemaining(3_000)).toBe('a few seconds left');
  });

  it('turns the server\'s "1031658 bytes read" into KiB/MiB', () => {
    expect(humanizeProgressMessage('1031658 bytes read')).toBe('1007.5 KiB read');
    expect(humanizeProgressMessage('applied 3 of 9 entries')).toBe('applied 3 of 9 entries');
    expect(humanizeProgressMessage('applied 47600 of 60000 entries')).toBe(
      `applied ${(47_600).toLocaleString()} of ${(60_000).toLocaleString()} entries`,
    );
    // Not a count: left as it is.
    expect(humanizeProgressMessage('policy 2026 saved')).toBe('policy 2026 saved');
  });
});
