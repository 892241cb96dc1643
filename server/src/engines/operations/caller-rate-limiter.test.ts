import { describe, expect, it } from 'vitest';
import { CallerRateLimiter } from './caller-rate-limiter.js';

describe('CallerRateLimiter', () => {
  it('lets a burst through, then one call per refill interval, and says when to retry', () => {
    let now = 0;
    const limiter = new CallerRateLimiter({ perMinute: 6, burst: 3, clock: () => now });
    expect([1, 2, 3].map(() => limiter.take('b/viewer'))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    // 6 a minute: a token every 10 s.
    expect(limiter.take('b/viewer')).toEqual({ retryAfterSeconds: 10 });
    now += 4_000;
    expect(limiter.take('b/viewer')).toEqual({ retryAfterSeconds: 6 });
    now += 6_000;
    expect(limiter.take('b/viewer')).toBeUndefined();
    expect(limiter.take('b/viewer')).toEqual({ retryAfterSeconds: 10 });
    expect(limiter.describe()).toBe('6 a minute per caller, 3 at once');
  });

  it('counts each caller on its own', () => {
    const limiter = new CallerRateLimiter({ perMinute: 60, burst: 1, clock: () => 0 });
    expect(limiter.take('b/one')).toBeUndefined();
    expect(limiter.take('b/one')).toBeDefined();
    expect(limiter.take('b/two')).toBeUndefined();
    expect(limiter.take('a/one')).toBeUndefined();
  });

  it('never refills beyond the burst after a long quiet spell', () => {
    let now = 0;
    const limiter = new CallerRateLimiter({ perMinute: 60, burst: 2, clock: () => now });
    limiter.take('c');
    now += 3_600_000;
    expect([limiter.take('c'), limiter.take('c'), limiter.take('c')]).toEqual([
      undefined,
      undefined,
      { retryAfterSeconds: 1 },
    ]);
  });

  it('holds at most maxCallers, forgetting the longest idle first', () => {
    let now = 0;
    const limiter = new CallerRateLimiter({
      perMinute: 1,
      burst: 1,
      maxCallers: 100,
      clock: () => now,
    });
    for (let i = 0; i < 10_000; i++) {
      now += 1;
      limiter.take(`caller-${i}`);
    }
    expect(limiter.size).toBe(100);
    // The most recent callers are still limited; the first ones were forgotten.
    expect(limiter.take('caller-9999')).toBeDefined();
    expect(limiter.take('caller-0')).toBeUndefined();
  });

  it('with a rate of 0 limits nothing and keeps no state', () => {
    const limiter = new CallerRateLimiter({ perMinute: 0, burst: 1 });
    for (let i = 0; i < 100; i++) expect(limiter.take('x')).toBeUndefined();
    expect(limiter.size).toBe(0);
  });
});
