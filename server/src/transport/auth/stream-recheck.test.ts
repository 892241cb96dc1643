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
});
