import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { createBackgroundYielder, createEventLoopYielder } from './event-loop-yield.js';
import { foregroundCalls } from './foreground-calls.js';

function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Tenant b's background work: 40 ms of work, then a yield; resolves how long the yield took. */
async function yieldAfterSlice(during: () => void = () => undefined): Promise<number> {
  const yielder = createBackgroundYielder('b', { sliceMs: 40, busyShare: 0.2 });
  try {
    during();
    spin(40);
    const started = performance.now();
    await yielder.yield();
    return performance.now() - started;
  } finally {
    yielder.release();
  }
}

describe('createEventLoopYielder', () => {
  it('does not yield before a slice has passed', async () => {
    const yielder = createEventLoopYielder(1_000);
    let other = false;
    setImmediate(() => (other = true));
    await yielder();
    expect(other).toBe(false);
  });

  it('yields once a slice has passed: callbacks queued meanwhile run', async () => {
    const yielder = createEventLoopYielder(20);
    let other = false;
    setImmediate(() => (other = true));
    spin(20);
    await yielder();
    expect(other).toBe(true);
  });

  it('does not wait for calls, whoever makes them', async () => {
    const end = foregroundCalls.begin('a');
    try {
      const yielder = createEventLoopYielder(40);
      spin(40);
      const started = performance.now();
      await yielder();
      expect(performance.now() - started).toBeLessThan(120);
    } finally {
      end();
    }
  });
});

describe('createBackgroundYielder', () => {
  it("steps aside while another tenant's call is in flight: it waits (1 - share) / share of its slice", async () => {
    let end = () => {};
    try {
      // 40 ms of work at a fifth of the time: at least 160 ms for the calls.
      expect(
        await yieldAfterSlice(() => (end = foregroundCalls.begin('a'))),
      ).toBeGreaterThanOrEqual(159);
    } finally {
      end();
    }
  });

  it('a call with no tenant (refused before the access check) counts as another tenant', async () => {
    let end = () => {};
    try {
      expect(await yieldAfterSlice(() => (end = foregroundCalls.begin()))).toBeGreaterThanOrEqual(
        159,
      );
    } finally {
      end();
    }
  });

  it("the tenant's own calls (its console polling the preview) do not slow it down", async () => {
    let end = () => {};
    try {
      expect(await yieldAfterSlice(() => (end = foregroundCalls.begin('b')))).toBeLessThan(120);
    } finally {
      end();
    }
  });

  it("another tenant's short call during the slice does not slow it down", async () => {
    expect(await yieldAfterSlice(() => foregroundCalls.begin('a')())).toBeLessThan(120);
  });

  it("steps aside while other tenants' short calls arrive fast (a server saturated by short calls on SQLite)", async () => {
    // 50 calls in a 40 ms slice, each over at once: little time in flight, 1 250 calls a second.
    expect(
      await yieldAfterSlice(() => {
        for (let i = 0; i < 50; i++) foregroundCalls.begin('a')();
      }),
    ).toBeGreaterThanOrEqual(159);
  });

  it('with no call served it runs at full speed', async () => {
    expect(await yieldAfterSlice()).toBeLessThan(120);
  });
});
