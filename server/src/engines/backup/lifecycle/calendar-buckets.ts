import { invalidArgument } from '../../errors.js';

/** The calendar periods a keep-hourly … keep-yearly rule counts. */
export type BucketPeriod = 'hourly' | 'daily' | 'weekly' | 'monthly' | 'yearly';

/** A backup's local calendar position in one time zone. */
export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
}

/** Whether `zone` is an IANA time zone name this runtime knows (InvalidArgument otherwise). */
export function validateTimeZone(zone: string, field = 'time_zone'): string {
  if (zone === '') return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw invalidArgument(field, `${JSON.stringify(zone)} is not an IANA time zone`);
  }
}

/**
 * ISO 8601 week of a civil date (weeks start on Monday; week 1 holds the year's first Thursday),
 * as restic's weekly bucket (Go's time.ISOWeek). Pure date arithmetic on the local date: the
 * zone was already applied.
 */
export function isoWeek(year: number, month: number, day: number): { year: number; week: number } {
  const date = new Date(Date.UTC(year, month - 1, day));
  const weekday = (date.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  // The Thursday of this week decides the ISO year.
  date.setUTCDate(date.getUTCDate() - weekday + 3);
  const isoYear = date.getUTCFullYear();
  const firstThursday = new Date(Date.UTC(isoYear, 0, 4));
  const firstWeekday = (firstThursday.getUTCDay() + 6) % 7;
  firstThursday.setUTCDate(firstThursday.getUTCDate() - firstWeekday + 3);
  const week = 1 + Math.round((date.getTime() - firstThursday.getTime()) / (7 * 86_400_000));
  return { year: isoYear, week };
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A local calendar day, with its ISO week as a bucket number (year * 100 + week). */
interface LocalDay {
  year: number;
  month: number;
  day: number;
  week: number;
}

/** Entries a cache keeps before it starts again (about 270 years of days). */
const CACHE_LIMIT = 100_000;

/**
 * Local calendar fields of instants in one IANA zone. The zone's UTC offset comes from Intl (the
 * runtime's tz database: daylight-saving changes come from it, not from our arithmetic); the
 * local fields are then the UTC fields of instant + offset. Reading Intl costs about 2 µs, too
 * much for a preview over 100 000 backups, so the offset is read once per UTC day boundary: when
 * a day starts and ends with the same offset, every instant of it has that offset (no zone
 * changes its offset twice in one day and back); a day with a change asks Intl per instant. The
 * fields of each local day are computed once too. One calendar per zone is kept for the
 * process (ZoneCalendar.of), so the next preview finds both caches filled.
 */
export class ZoneCalendar {
  private static readonly byZone = new Map<string, ZoneCalendar>();
  private readonly format: Intl.DateTimeFormat;
  private readonly boundaryOffsets = new Map<number, number>();
  private readonly localDays = new Map<number, LocalDay>();

  /** The process's calendar of a zone. */
  static of(timeZone: string): ZoneCalendar {
    let calendar = ZoneCalendar.byZone.get(timeZone);
    if (!calendar) {
      // Few zones are in use at once; the bound keeps drafts in many zones from growing memory.
      if (ZoneCalendar.byZone.size >= 8) ZoneCalendar.byZone.clear();
      calendar = new ZoneCalendar(timeZone);
      ZoneCalendar.byZone.set(timeZone, calendar);
    }
    return calendar;
  }

  constructor(readonly timeZone: string) {
    this.format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
  }

  /** The zone's offset from UTC (ms) at an instant, read from Intl. */
  private offsetAt(epochMs: number): number {
    const minuteStart = Math.floor(epochMs / 60_000) * 60_000;
    // "11/24/2026, 13:05": the plain format is several times faster than formatToParts.
    const text = this.format.format(minuteStart);
    const m = /^(\d+)\/(\d+)\/(\d+),\s*(\d+):(\d+)/.exec(text);
    if (!m) throw new Error(`unexpected date format ${text}`);
    const [month, day, year, hour, minute] = m.slice(1).map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ];
    return Date.UTC(year, month - 1, day, hour % 24, minute) - minuteStart;
  }

  private boundaryOffset(day: number): number {
    let offset = this.boundaryOffsets.get(day);
    if (offset === undefined) {
      offset = this.offsetAt(day * DAY_MS);
      if (this.boundaryOffsets.size >= CACHE_LIMIT) this.boundaryOffsets.clear();
      this.boundaryOffsets.set(day, offset);
    }
    return offset;
  }

  /** The local wall-clock time of an instant, as epoch ms of the same fields in UTC. */
  private localMs(epochMs: number): number {
    const day = Math.floor(epochMs / DAY_MS);
    const start = this.boundaryOffset(day);
    return epochMs + (start === this.boundaryOffset(day + 1) ? start : this.offsetAt(epochMs));
  }

  private localDay(dayNumber: number): LocalDay {
    let found = this.localDays.get(dayNumber);
    if (!found) {
      const date = new Date(dayNumber * DAY_MS);
      const year = date.getUTCFullYear();
      const month = date.getUTCMonth() + 1;
      const day = date.getUTCDate();
      const w = isoWeek(year, month, day);
      found = { year, month, day, week: w.year * 100 + w.week };
      if (this.localDays.size >= CACHE_LIMIT) this.localDays.clear();
      this.localDays.set(dayNumber, found);
    }
    return found;
  }

  /** The local year, month, day and hour of an epoch-ms instant. */
  local(epochMs: number): LocalTime {
    const localMs = this.localMs(epochMs);
    const dayNumber = Math.floor(localMs / DAY_MS);
    const { year, month, day } = this.localDay(dayNumber);
    return { year, month, day, hour: Math.floor((localMs - dayNumber * DAY_MS) / HOUR_MS) };
  }

  /** The bucket of an instant for a period, as a comparable number (restic's ymdh, ymd, yw …). */
  bucket(epochMs: number, period: BucketPeriod): number {
    const localMs = this.localMs(epochMs);
    const dayNumber = Math.floor(localMs / DAY_MS);
    const t = this.localDay(dayNumber);
    switch (period) {
      case 'hourly':
        return (
          ((t.year * 100 + t.month) * 100 + t.day) * 100 +
          Math.floor((localMs - dayNumber * DAY_MS) / HOUR_MS)
        );
      case 'daily':
        return (t.year * 100 + t.month) * 100 + t.day;
      case 'weekly':
        return t.week;
      case 'monthly':
        return t.year * 100 + t.month;
      case 'yearly':
        return t.year;
    }
  }

  /** A readable bucket name for keep reasons: "2026-11-24 13h", "2026-11-24", "2026-W48" … */
  label(epochMs: number, period: BucketPeriod): string {
    const t = this.local(epochMs);
    const two = (n: number) => String(n).padStart(2, '0');
    const date = `${t.year}-${two(t.month)}-${two(t.day)}`;
    switch (period) {
      case 'hourly':
        return `${date} ${two(t.hour)}h`;
      case 'daily':
        return date;
      case 'weekly': {
        const w = isoWeek(t.year, t.month, t.day);
        return `${w.year}-W${two(w.week)}`;
      }
      case 'monthly':
        return `${t.year}-${two(t.month)}`;
      case 'yearly':
        return String(t.year);
    }
  }
}
