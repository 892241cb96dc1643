/** The units the interval fields offer, in milliseconds. */
export const INTERVAL_UNITS = {
  seconds: 1_000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
} as const;

export type IntervalUnit = keyof typeof INTERVAL_UNITS;

/** A year: longer cadences are almost certainly a typo (and overflow nothing, but help nobody). */
export const MAX_INTERVAL_MS = 365 * INTERVAL_UNITS.days;

export type ParsedInterval = { ok: true; ms: number } | { ok: false; error: string };

/**
 * Checks an interval typed as a number and a unit. Whole numbers only (the server keeps
 * milliseconds; fractions of a unit are easy to misread), positive, at most a year.
 */
export function parseInterval(text: string, unit: IntervalUnit): ParsedInterval {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'Enter an interval.' };
  if (!/^\d+$/.test(trimmed)) return { ok: false, error: 'Enter a whole number.' };
  const amount = Number(trimmed);
  if (amount <= 0) return { ok: false, error: 'The interval must be greater than zero.' };
  const ms = amount * INTERVAL_UNITS[unit];
  if (ms > MAX_INTERVAL_MS) return { ok: false, error: 'The interval must be at most 365 days.' };
  return { ok: true, ms };
}

/**
 * What the server registered compared with what was asked: the server clamps an interval up to
 * its scheduler minimum and answers the effective one (spec 000, ScheduleBackup).
 */
export function describeEffectiveInterval(requestedMs: number, effectiveMs: number): string {
  const requested = formatInterval(requestedMs);
  const effective = formatInterval(effectiveMs);
  if (effectiveMs === requestedMs) return `Runs every ${effective}, as requested.`;
  if (effectiveMs > requestedMs) {
    return `Clamped to ${effective}: the requested ${requested} is below the server's minimum interval.`;
  }
  return `The server registered ${effective} instead of the requested ${requested}.`;
}

const UNIT_NAMES: readonly [number, string][] = [
  [INTERVAL_UNITS.days, 'day'],
  [INTERVAL_UNITS.hours, 'hour'],
  [INTERVAL_UNITS.minutes, 'minute'],
  [INTERVAL_UNITS.seconds, 'second'],
];

/** 60_000 → "1 minute", 90_000 → "90 seconds", 1_500 → "1500 ms": exact, in the largest unit. */
export function formatInterval(ms: number): string {
  for (const [size, name] of UNIT_NAMES) {
    if (ms >= size && ms % size === 0) {
      const amount = ms / size;
      return `${amount} ${name}${amount === 1 ? '' : 's'}`;
    }
  }
  return `${ms} ms`;
}

/** The largest unit that writes the interval exactly, for pre-filling a form. */
export function splitInterval(ms: number): { amount: string; unit: IntervalUnit } {
  const units = Object.entries(INTERVAL_UNITS).reverse() as [IntervalUnit, number][];
  for (const [unit, size] of units) {
    if (ms >= size && ms % size === 0) return { amount: String(ms / size), unit };
  }
  return { amount: String(Math.max(1, Math.round(ms / 1000))), unit: 'seconds' };
}
