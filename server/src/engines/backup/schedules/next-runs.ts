import { instantOfWallClock, wallClockOf } from './zoned-time.js';

/**
 * When a schedule runs. Without an anchor a cadence runs every interval from when it was
 * registered (or last fired), as ScheduleBackup always did. With an anchor (a time of day in an
 * IANA zone) its runs fall on wall-clock slots of that zone:
 * - an interval under a day runs at the anchor and every interval after it, each local day
 *   starting over at the anchor (every 6 h at 02:00: 02:00, 08:00, 14:00, 20:00; every 5 h at
 *   02:00: 02:00, 07:00, 12:00, 17:00, 22:00);
 * - an interval of a day or more runs at the anchor every interval's worth of local days,
 *   rounded up (24 h: daily; 48 h: every second day; 36 h: every second day too).
 * Slots are wall-clock times, so "every 24 h at 02:00 Europe/Berlin" stays at 02:00 across the
 * change to and from summer time; a slot the clocks skip runs just after the gap, a slot that
 * happens twice runs once, at its first instant. Two runs are never closer than the scheduler
 * minimum, even where a clock change squeezes two slots together.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
/** More slots than any real search visits (a year of one-minute slots is 525 600). */
const SEARCH_LIMIT = 1_000_000;

export interface ScheduleAnchor {
  /** Minutes after local midnight (02:00 → 120). */
  minuteOfDay: number;
  /** An IANA zone Intl knows. */
  timeZone: string;
}

export interface Cadence {
  intervalMs: number;
  anchor: ScheduleAnchor | null;
  /** The scheduler minimum: no two runs closer than this. */
  minIntervalMs: number;
}

/** The wall-clock slots of an anchored cadence from the local day before `fromWall`, in order. */
function* wallSlots(fromWall: number, intervalMs: number, anchor: ScheduleAnchor) {
  let day = Math.floor(fromWall / DAY_MS) * DAY_MS - DAY_MS;
  for (;;) {
    const first = day + anchor.minuteOfDay * MINUTE_MS;
    // Each local day starts over at the anchor: its slots end before the next day's anchor.
    for (let slot = first; slot < first + DAY_MS; slot += intervalMs) yield slot;
    day += DAY_MS;
  }
}

/** The first slot at or after `fromWall` whose instant `accept` takes. */
function firstSlot(
  fromWall: number,
  cadence: Cadence & { anchor: ScheduleAnchor },
  accept: (instant: number) => boolean,
): number {
  let visited = 0;
  for (const wall of wallSlots(fromWall, cadence.intervalMs, cadence.anchor)) {
    if (++visited > SEARCH_LIMIT) break;
    if (wall < fromWall) continue;
    const instant = instantOfWallClock(wall, cadence.anchor.timeZone);
    if (accept(instant)) return instant;
  }
  throw new Error('no anchored slot found within the search limit');
}

/** The first run of a cadence registered (or re-anchored) at `now`. */
export function firstRunAfter(now: number, cadence: Cadence): number {
  if (!cadence.anchor) return now + cadence.intervalMs;
  // Start a few hours back in wall time: the zone's offset can put `now`'s own slot there.
  const fromWall = wallClockOf(now, cadence.anchor.timeZone) - 3 * 3_600_000;
  return firstSlot(fromWall, { ...cadence, anchor: cadence.anchor }, (instant) => instant > now);
}

/**
 * The run after one planned for `previous` that fired at `now` (now ≥ previous). Slots missed
 * while the server was down are not caught up: the next run is the first slot after `now`.
 */
export function runAfter(previous: number, now: number, cadence: Cadence): number {
  if (!cadence.anchor) return now + cadence.intervalMs;
  const previousWall = wallClockOf(previous, cadence.anchor.timeZone);
  // A day or more: the anchor of the day the interval reaches, counted in local days (the
  // previous run's own wall time may sit past a skipped hour). Under a day: the next slot.
  const fromWall =
    cadence.intervalMs >= DAY_MS
      ? Math.floor(previousWall / DAY_MS) * DAY_MS + Math.ceil(cadence.intervalMs / DAY_MS) * DAY_MS
      : previousWall + 1;
  const notBefore = previous + Math.max(1, cadence.minIntervalMs);
  return firstSlot(
    fromWall,
    { ...cadence, anchor: cadence.anchor },
    (instant) => instant > now && instant >= notBefore,
  );
}

/** The next `count` planned runs, the first of them the stored next run time. */
export function plannedRuns(nextRunAt: number, count: number, cadence: Cadence): number[] {
  const runs: number[] = [];
  let run = nextRunAt;
  while (runs.length < count) {
    runs.push(run);
    run = runAfter(run, run, cadence);
  }
  return runs;
}

/** "02:00" → 120; undefined when it is not a 24-hour HH:mm time. */
export function parseTimeOfDay(text: string): number | undefined {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : undefined;
}

/** 120 → "02:00". */
export function formatTimeOfDay(minuteOfDay: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minuteOfDay / 60))}:${pad(minuteOfDay % 60)}`;
}
