import { create } from '@bufbuild/protobuf';
import { DurationSchema, type Duration } from '@bufbuild/protobuf/wkt';

/**
 * Converts milliseconds to a google.protobuf.Duration (the spec's time-span ticks, docs/contract.md
 * "Durations for ticks"). The typed clients send whole milliseconds: a fraction is rounded up
 * to the next millisecond (0.2 ms → 1 ms), so a positive interval never becomes a zero one,
 * which the server would refuse after the client's own check let it pass.
 */
export function durationFromMs(ms: number): Duration {
  const wholeMs = Math.ceil(ms);
  const seconds = Math.trunc(wholeMs / 1000);
  const nanos = (wholeMs - seconds * 1000) * 1_000_000;
  return create(DurationSchema, { seconds: BigInt(seconds), nanos });
}

/**
 * Converts a google.protobuf.Duration to milliseconds, exactly: a sub-millisecond part (down to
 * the nanosecond, finer than a 100 ns tick) stays as the fraction. An absent duration is 0.
 */
export function durationToMs(duration: Duration | undefined): number {
  if (!duration) return 0;
  return Number(duration.seconds) * 1000 + duration.nanos / 1_000_000;
}
