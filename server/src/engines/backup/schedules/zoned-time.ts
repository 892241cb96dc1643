/**
 * Wall-clock time in an IANA time zone, with Intl only (Node's full ICU carries the tz database):
 * a "wall" value is the local date and time written as if it were UTC milliseconds, so local
 * days and minutes are plain arithmetic on it.
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether Intl knows the zone ("Europe/Berlin", "UTC"); "CET+1" or "Mars/Base" are not zones. */
export function isKnownTimeZone(timeZone: string): boolean {
  if (timeZone.trim() === '' || timeZone !== timeZone.trim()) return false;
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone as Intl names it canonically ("utc" → "UTC"), for storing and showing. */
export function canonicalTimeZone(timeZone: string): string {
  return formatterOf(timeZone).resolvedOptions().timeZone;
}

/** The local date and time of an instant in the zone, as wall milliseconds (whole seconds). */
export function wallClockOf(instantMs: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatterOf(timeZone).formatToParts(new Date(instantMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wholeSeconds = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  // Intl drops the milliseconds; keep them, so wall and instant differ by the offset exactly.
  return wholeSeconds + (((instantMs % 1000) + 1000) % 1000);
}

/** The zone's offset from UTC at an instant, in ms (Berlin in winter: +3 600 000). */
export function offsetAt(instantMs: number, timeZone: string): number {
  return wallClockOf(instantMs, timeZone) - instantMs;
}

const DAY_MS = 86_400_000;

/**
 * The instant a wall-clock time happens in the zone, resolved as Temporal's "compatible" does: a
 * time that happens twice (the hour the clocks go back) is its earlier instant; a time that
 * never happens (the hour the clocks skip) moves forward by the skipped length (02:30 on the
 * day Berlin skips 02:00–03:00 is 03:30 summer time).
 */
export function instantOfWallClock(wallMs: number, timeZone: string): number {
  // Offsets a day either side: a zone changes its offset at most once within two days.
  const before = offsetAt(wallMs - DAY_MS, timeZone);
  const after = offsetAt(wallMs + DAY_MS, timeZone);
  const candidates = [wallMs - before, wallMs - after].filter(
    (instant) => wallClockOf(instant, timeZone) === wallMs,
  );
  if (candidates.length > 0) return Math.min(...candidates);
  // In the gap: read with the offset in force before it, which lands past the gap.
  return wallMs - before;
}
