import { describe, expect, it } from 'vitest';
import { SignInLimiter } from './sign-in-limiter.js';

describe('SignInLimiter', () => {
  it('blocks an address after the limit until its window ends, then counts afresh', () => {
    let now = 1_000_000;
    const limiter = new SignInLimiter({ limit: 2, windowMs: 60_000, clock: () => now });
    limiter.recordFailure('a');
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    now += 10_000;
    limiter.recordFailure('a');
    expect(limiter.retryAfterSeconds('a')).toBe(50);
    expect(limiter.retryAfterSeconds('b')).toBe(0);
    now += 49_500;
    expect(limiter.retryAfterSeconds('a')).toBe(1);
    now += 500;
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    limiter.recordFailure('a');
    expect(limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('limit 0 never blocks', () => {
    const limiter = new SignInLimiter({ limit: 0, windowMs: 60_000 });
    for (let i = 0; i < 100; i++) limiter.recordFailure('a');
    expect(limiter.retryAfterSeconds('a')).toBe(0);
  });

  it('keeps at most maxAddresses, dropping the oldest windows first', () => {
    const limiter = new SignInLimiter({ limit: 1, windowMs: 60_000, maxAddresses: 2 });
    for (const address of ['a', 'b', 'c']) limiter.recordFailure(address);
    expect(limiter.retryAfterSeconds('a')).toBe(0);
    expect(limiter.retryAfterSeconds('b')).toBeGreaterThan(0);
    expect(limiter.retryAfterSeconds('c')).toBeGreaterThan(0);
  });

  it('forgets the windows that ended as new failures arrive', () => {
    let now = 0;
    const limiter = new SignInLimiter({ limit: 5, windowMs: 1_000, clock: () => now });
    for (let i = 0; i < 100; i++) limiter.recordFailure(`10.0.0.${i}`);
    expect(limiter.size).toBe(100);
    now = 2_000;
    limiter.recordFailure('10.0.1.1');
    expect(limiter.size).toBe(1);
  });
});
