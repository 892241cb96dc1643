import { setTimeout as delay } from 'node:timers/promises';

/**
 * A response stream that re-checks the caller's credential while it is open. Streams
 * (StreamBackups, StreamDeadLetters, ExportArtifact) can run for hours; checking only when they
 * start let one outlive a revoked or expired token. `recheck` runs every `intervalMs` — while
 * messages flow and while the stream waits for the next one — and its throw (Unauthenticated)
 * ends the stream.
 */
export async function* recheckWhileOpen<T>(
  source: AsyncIterable<T>,
  recheck: () => Promise<unknown>,
  intervalMs: number,
  signal: AbortSignal,
): AsyncGenerator<T, void, undefined> {
  const iterator = source[Symbol.asyncIterator]();
  let checkedAt = performance.now();
  const check = async () => {
    await recheck();
    checkedAt = performance.now();
  };
  try {
    for (;;) {
      const next = iterator.next();
      // Awaited below or abandoned when the credential fails; never an unhandled rejection.
      next.catch(() => undefined);
      let result: IteratorResult<T> | undefined;
      while (result === undefined) {
        const wait = Math.max(0, checkedAt + intervalMs - performance.now());
        const timer = new AbortController();
        const stop = AbortSignal.any([timer.signal, signal]);
        const tick = delay(wait, undefined, { signal: stop }).then(
          () => 'tick' as const,
          () => 'stopped' as const,
        );
        const winner = await Promise.race([next.then((r) => ({ r })), tick]);
        timer.abort();
        if (typeof winner === 'object') result = winner.r;
        else if (winner === 'tick') await check();
        else result = await next; // the call ended: let the source finish its own way
      }
      if (result.done) return;
      if (performance.now() - checkedAt >= intervalMs) await check();
      yield result.value;
    }
  } finally {
    // Not awaited: a source busy in its own await (waiting for something to send) would hold
    // the refusal back until then. It is told to stop, and the call's signal ends its wait.
    void iterator.return?.()?.catch(() => undefined);
  }
}
