import { formatBytes, formatCount, formatDuration } from '../format';

/** What a progress report lets a reader plan with: the percent, the rate and the time left. */
export interface ProgressEstimate {
  /** 0–100 when the total is known, else undefined. */
  percent: number | undefined;
  /** Units per second since counting began, when enough time has passed to say. */
  perSecond: number | undefined;
  /** Milliseconds left at that rate, when the total and the rate are known. */
  remainingMs: number | undefined;
}

/** Less than this since the start says nothing about the rate. */
const MIN_ELAPSED_MS = 1_000;

export function estimateProgress(input: {
  done: number;
  total: number;
  /** Time from the first count (`doneAtStart`) to the measurement of `done`. */
  elapsedMs: number | undefined;
  doneAtStart?: number;
}): ProgressEstimate {
  const { done, total, elapsedMs } = input;
  const known = total > 0;
  const percent = known ? Math.min(100, Math.floor((done / total) * 100)) : undefined;
  const counted = done - (input.doneAtStart ?? 0);
  const perSecond =
    elapsedMs !== undefined && elapsedMs >= MIN_ELAPSED_MS && counted > 0
      ? (counted / elapsedMs) * 1_000
      : undefined;
  const remainingMs =
    known && perSecond !== undefined ? (Math.max(0, total - done) / perSecond) * 1_000 : undefined;
  return { percent, perSecond, remainingMs };
}

/** Bytes are written in KiB/MiB/GiB; other units as counts. */
export const isBytes = (unit: string | undefined) => unit === 'bytes' || unit === 'B';

/** An amount in its unit, bytes in KiB/MiB/GiB: "1.5 MiB", "1,204 entries". */
export function formatAmount(value: bigint | number, unit: string | undefined): string {
  if (isBytes(unit)) return formatBytes(value);
  return unit ? `${formatCount(value)} ${unit}` : formatCount(value);
}

/** "2.1 MiB/s", "410 entries/s". */
export function formatRate(perSecond: number, unit: string | undefined): string {
  if (isBytes(unit)) return `${formatBytes(Math.round(perSecond))}/s`;
  const rounded = perSecond >= 10 ? Math.round(perSecond) : Math.round(perSecond * 10) / 10;
  return `${formatCount(rounded)} ${unit ?? 'items'}/s`;
}

/** "about 2 min 10 s left"; under five seconds, "a few seconds left". */
export function formatRemaining(ms: number): string {
  if (ms < 5_000) return 'a few seconds left';
  return `about ${formatDuration(ms)} left`;
}

/** A count in a server message: before "of" or a counted noun, or after "of". */
const COUNT_IN_MESSAGE =
  /\b\d{4,}\b(?= (?:of|entries|backups|keys|artifacts|letters|lines)\b)|(?<=\bof )\d{4,}\b/g;

/**
 * Server messages in human units: bytes ("1031658 bytes read") in KiB/MiB/GiB, and counts
 * ("applied 47600 of 60000 entries") grouped as the console writes them.
 */
export function humanizeProgressMessage(message: string): string {
  return message
    .replace(/\b(\d+) bytes\b/g, (_match, digits: string) => formatBytes(Number(digits)))
    .replace(COUNT_IN_MESSAGE, (digits) => formatCount(Number(digits)));
}
