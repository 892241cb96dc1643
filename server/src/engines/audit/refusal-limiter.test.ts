import { describe, expect, it } from 'vitest';
import { RefusalLimiter, type RefusalSummary } from './refusal-limiter.js';

function limiter(limit: number, maxAddresses?: number) {
  let now = 1_000_000;
  const summaries: RefusalSummary[] = [];
  const subject = new RefusalLimiter({
    limit,
    windowMs: 10_000,
    onSummary: (s) => summaries.push(s),
    clock: () => now,
    ...(maxAddresses !== undefined && { maxAddresses }),
  });
  return { subject, summaries, advance: (ms: number) => (now += ms) };
}

describe('RefusalLimiter', () => {
  it('admits the limit per window, then answers with the limit and the seconds left', () => {
    const { subject, advance } = limiter(3);
    for (let i = 0; i < 3; i++) expect(subject.admit('10.0.0.1')).toEqual({ limited: false });
    advance(2_500);
    expect(subject.admit('10.0.0.1')).toEqual({
      limited: true,
      retryAfterSeconds: 8,
      limit: 3,
      windowSeconds: 10,
    });
    // Another address has its own window.
    expect(subject.admit('10.0.0.2')).toEqual({ limited: false });
  });

  it('summarises a window that went over the limit once it ends, and starts afresh', () => {
    const { subject, summaries, advance } = limiter(2);
    for (let i = 0; i < 414; i++) subject.admit('127.0.0.1');
    subject.admit('10.0.0.9');
    advance(9_999);
    subject.closeEnded();
    expect(summaries).toEqual([]);
    advance(1);
    expect(subject.admit('127.0.0.1')).toEqual({ limited: false });
    expect(summaries).toEqual([
      {
        clientAddress: '127.0.0.1',
        refusals: 414,
        summarised: 412,
        windowStart: 1_000_000,
        windowMs: 10_000,
        limit: 2,
      },
    ]);
    expect(subject.size).toBe(1);
  });

  it('tracks at most maxAddresses, summarising the oldest it drops', () => {
    const { subject, summaries } = limiter(1, 100);
    for (let i = 0; i < 1_000; i++) {
      subject.admit(`10.0.${i >> 8}.${i & 255}`);
      subject.admit(`10.0.${i >> 8}.${i & 255}`);
    }
    expect(subject.size).toBe(100);
    expect(summaries).toHaveLength(900);
    subject.closeAll();
    expect(summaries).toHaveLength(1_000);
    expect(subject.size).toBe(0);
  });

  it('a limit of 0 records every refusal', () => {
    const { subject } = limiter(0);
    for (let i = 0; i < 100; i++) expect(subject.admit('127.0.0.1').limited).toBe(false);
    expect(subject.size).toBe(0);
  });
});
