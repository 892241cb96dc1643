import { performance } from 'node:perf_hooks';
import { setImmediate, setTimeout } from 'node:timers/promises';
import { foregroundCalls } from './foreground-calls.js';

/**
 * better-sqlite3 answers synchronously, so a loop over pages that does only database work runs
 * on microtasks and starves every other call on the process until it ends. The returned function
 * yields to the event loop once `sliceMs` of work has passed since the last yield; call it once
 * per page.
 */
export function createEventLoopYielder(sliceMs = 10): () => Promise<void> {
  let resumed = performance.now();
  return async () => {
    if (performance.now() - resumed < sliceMs) return;
    await setImmediate();
    resumed = performance.now();
  };
}

/** The share of the time a preview, diff, dry-run or scan takes while others' calls are served. */
export const BACKGROUND_BUSY_SHARE = 0.05;

/** The share of a slice during which other tenants' calls were in flight that makes it busy. */
const BUSY_SERVED_SHARE = 0.5;

/**
 * Other tenants' calls per second (smoothed) that make the process busy. On SQLite a call is in
 * flight for a fraction of a millisecond: most of its cost (HTTP/2 framing, decoding, encoding)
 * is outside the interceptor, so a server saturated by short calls shows little time in flight.
 * A console polling a few times a second stays far below it.
 */
const BUSY_CALLS_PER_SECOND = 100;

/** How quickly the smoothed call rate follows the calls (time constant, ms). */
const RATE_SMOOTHING_MS = 250;

export interface BackgroundYielder {
  /** Call once per page or every few hundred steps. */
  yield(): Promise<void>;
  /** Call when the work ends (finally). */
  release(): void;
}

/**
 * For work nobody waits on call by call (previews, diffs, dry-runs, scans, rewrites) of one
 * tenant: yields like createEventLoopYielder, and also steps aside while the process is busy
 * serving other tenants (foreground-calls.ts): their calls arrive at a hundred a second or more,
 * or were in flight for at least half of the slice (calls waiting on PostgreSQL). It then waits
 * long enough that its slices take at most `busyShare` of the time. A slice counts its waits too,
 * so a page read from PostgreSQL or judged in a worker thread is paced with the page. An idle
 * server, or one serving only this tenant (its console polling the preview), runs it at full
 * speed; a flood of previews cannot take the loop, the database or the cores from the puts and
 * polls of other tenants.
 */
export function createBackgroundYielder(
  tenant: string,
  options: { sliceMs?: number; busyShare?: number } = {},
): BackgroundYielder {
  const { sliceMs = 10, busyShare = BACKGROUND_BUSY_SHARE } = options;
  const others = foregroundCalls.follow(tenant);
  let resumed = performance.now();
  let servedAtResume = others.othersBusyMs();
  let begunAtResume = others.othersBegun();
  let callsPerSecond = 0;
  return {
    async yield() {
      const worked = performance.now() - resumed;
      if (worked < sliceMs) return;
      await setImmediate();
      const elapsed = performance.now() - resumed;
      const weight = 1 - Math.exp(-elapsed / RATE_SMOOTHING_MS);
      const rate = ((others.othersBegun() - begunAtResume) * 1000) / elapsed;
      callsPerSecond += (rate - callsPerSecond) * weight;
      const served = (others.othersBusyMs() - servedAtResume) / worked;
      if (callsPerSecond >= BUSY_CALLS_PER_SECOND || served >= BUSY_SERVED_SHARE) {
        await setTimeout((worked * (1 - busyShare)) / busyShare);
      }
      servedAtResume = others.othersBusyMs();
      begunAtResume = others.othersBegun();
      resumed = performance.now();
    },
    release: () => others.release(),
  };
}
