import { create } from '@bufbuild/protobuf';
import { DurationSchema, type Duration } from '@bufbuild/protobuf/wkt';

/** Converts milliseconds to a google.protobuf.Duration (the spec's time-span ticks). */
export function durationFromMs(ms: number): Duration {
  const wholeMs = Math.trunc(ms);
  const seconds = Math.trunc(wholeMs / 1000);
  const nanos = (wholeMs - seconds * 1000) * 1_000_000;
  return create(DurationSchema, { seconds: BigInt(seconds), nanos });
}

/** Converts a google.protobuf.Duration to milliseconds; an absent duration is 0. */
export function durationToMs(duration: Duration | undefined): number {
  if (!duration) return 0;
  return Number(duration.seconds) * 1000 + Math.trunc(duration.nanos / 1_000_000);
}
