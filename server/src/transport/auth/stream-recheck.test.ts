import { describe, expect, it } from 'vitest';
import { recheckWhileOpen } from './stream-recheck.js';

describe('recheckWhileOpen', () => {
  it('ends a stream that is waiting for its next message once the credential fails', async () => {
    let valid = true;
    async function* quiet() {
      yield 1;
      // A stream with nothing to say for a long time (it would never end on its own here).
      await new Promise((resolve) => setTimeout(resolve, 60_000));
      yield 2;
    }
    const seen: number[] = [];
    const stream = recheckWhileOpen(
      quiet(),
      async () => {
        if (!valid) throw new Error('revoked');
      },
      50,
      new AbortController().signal,
    );
    const run = (async () => {
      for await (const value of stream) {
        seen.push(value);
        valid = false;
      }
    })();
    await expect(run).rejects.toThrow('revoked');
    expect(seen).toEqual([1]);
  });

  it('passes every message of a source whose credential stays valid, checking as it goes', async () => {
    let checks = 0;
    async function* slow() {
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 30));
        yield i;
      }
    }
    const out: number[] = [];
    const stream = recheckWhileOpen(
      slow(),
      async () => void checks++,
      20,
      new AbortController().signal,
    );
    for await (const value of stream) out.push(value);
    expect(out).toEqual([0, 1, 2, 3, 4]);
    expect(checks).toBeGreaterThanOrEqual(3);
  });

  it('holds a message back until a due check has passed, even when no timer gets to run', async () => {
    let checks = 0;
    let releaseCheck = () => {};
    // A source that never yields to the event loop: only the per-message due check can run.
    async function* busy() {
      for (let i = 0; i < 3; i++) {
        const until = performance.now() + 15;
        while (performance.now() < until);
        yield i;
      }
    }
    const stream = recheckWhileOpen(
      busy(),
      () => {
        checks++;
        return new Promise<void>((resolve) => (releaseCheck = resolve));
      },
      10,
      new AbortController().signal,
    );
    const first = stream.next();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(checks).toBe(1);
    let passed = false;
    void first.then(() => (passed = true));
    await Promise.resolve();
    expect(passed).toBe(false);
    releaseCheck();
    expect(await first).toEqual({ done: false, value: 0 });
    await stream.return();
  });

  it('ends at the next read when a check fails while the consumer is busy, without reading on', async () => {
    let valid = true;
    let pulled = 0;
    async function* counted() {
      for (;;) {
        pulled++;
        yield pulled;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    const stream = recheckWhileOpen(
      counted(),
      async () => {
        if (!valid) throw new Error('revoked');
      },
      20,
      new AbortController().signal,
    );
    expect((await stream.next()).value).toBe(1);
    valid = false;
    // The consumer holds the message (a slow network write) past the next timer check.
    await new Promise((resolve) => setTimeout(resolve, 60));
    await expect(stream.next()).rejects.toThrow('revoked');
    expect(pulled).toBe(1);
  });

  it('stops checking once the call has ended, and lets the source finish its own way', async () => {
    let checks = 0;
    const call = new AbortController();
    async function* late() {
      yield 1;
      await new Promise((resolve) => setTimeout(resolve, 80));
      yield 2;
    }
    const stream = recheckWhileOpen(late(), async () => void checks++, 10, call.signal);
    const seen: number[] = [];
    for await (const value of stream) {
      seen.push(value);
      call.abort();
    }
    expect(seen).toEqual([1, 2]);
    // Only the check before message 2 was passed on; none while the source was waited for.
    expect(checks).toBe(1);
  });
});
