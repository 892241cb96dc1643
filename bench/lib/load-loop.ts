// A small ghz-style load generator: N concurrent callers, each issuing the next call as soon as
// the previous one answered, for a fixed time. The same loop drives every target it is compared
// against, so the ratio measures the server, not the client.
import { percentile, since, sorted } from './stats.js';

export interface LoadResult {
  requests: number;
  errors: number;
  firstError: string | undefined;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function runLoad(
  call: () => Promise<unknown>,
  options: { concurrency: number; seconds: number; warmupSeconds?: number },
): Promise<LoadResult> {
  if (options.warmupSeconds) {
    await runLoad(call, { concurrency: options.concurrency, seconds: options.warmupSeconds });
  }
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await call();
        latencies.push(since(t0));
      } catch (error) {
        errors += 1;
        firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const seconds = since(started) / 1000;
  const ordered = sorted(latencies);
  return {
    requests: latencies.length,
    errors,
    firstError,
    seconds,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(ordered, 50),
    p99Ms: percentile(ordered, 99),
    maxMs: ordered.at(-1) ?? NaN,
  };
}
