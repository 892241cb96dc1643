import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Paces a capture's read to at most `perSecond` entries a second (an operator's throttle that
 * spares the live database; 0 reads as fast as it can). Call it with the running entry count
 * after each chunk; it waits until that count is due. An abort ends the wait at once, so a
 * cancelled capture is not held by its own throttle.
 */
export function createReadPacer(
  perSecond: number,
  signal: AbortSignal,
): (entriesSoFar: number) => Promise<void> {
  if (perSecond <= 0) return async () => {};
  const started = performance.now();
  return async (entriesSoFar) => {
    const wait = started + (entriesSoFar / perSecond) * 1000 - performance.now();
    if (wait <= 0 || signal.aborted) return;
    await sleep(wait, undefined, { signal }).catch(() => undefined);
  };
}
