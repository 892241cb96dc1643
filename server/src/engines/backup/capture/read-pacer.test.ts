import { describe, expect, it } from 'vitest';
import { createReadPacer } from './read-pacer.js';

describe('createReadPacer', () => {
  it('when unpaced (0), never waits', async () => {
    const pace = createReadPacer(0, new AbortController().signal);
    const started = performance.now();
    for (let n = 1_000; n <= 100_000; n += 1_000) await pace(n);
    // A lower bound elsewhere; here only that 100 calls did not sleep their way to 100 s.
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('holds a read to the rate: 300 entries at 1 000 a second take at least 0.3 s', async () => {
    const pace = createReadPacer(1_000, new AbortController().signal);
    const started = performance.now();
    for (let n = 50; n <= 300; n += 50) await pace(n);
    // Lower bound only: a slow machine may take longer, never shorter.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('when the capture is cancelled, the wait ends at once', async () => {
    const controller = new AbortController();
    const pace = createReadPacer(1, controller.signal);
    const waiting = pace(3_600); // due in an hour
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    await waiting;
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
