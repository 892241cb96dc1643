import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

/** A count as the reader's locale writes it; bigint-safe for int64 fields. */
export function formatCount(value: bigint | number): string {
  return integer.format(value);
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** 1536 → "1.5 KiB". */
export function formatBytes(value: bigint | number): string {
  let size = Number(value);
  let unit = 0;
  while (size >= 1024 && unit < BYTE_UNITS.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${unit === 0 ? size : size.toFixed(1)} ${BYTE_UNITS[unit]}`;
}

/** 93_000 → "1 min 33 s"; sub-second durations in ms. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1_000);
  const h = Math.floor(seconds / 3_600);
  const m = Math.floor((seconds % 3_600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h} h ${m} min`;
  if (m > 0) return `${m} min ${s} s`;
  return `${s} s`;
}

/** A protobuf Timestamp as a Date; undefined stays undefined (the field was not set). */
export function toDate(timestamp: Timestamp | undefined): Date | undefined {
  return timestamp ? timestampDate(timestamp) : undefined;
}

const local = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** The reader's local time, for display. */
export function formatLocal(date: Date): string {
  return local.format(date);
}

const compactThisYear = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});
const compactOtherYear = new Intl.DateTimeFormat(undefined, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/**
 * A short local time for narrow table cells ("Nov 26, 03:41 AM", "26 Nov, 03:41"): day and
 * minute this year, the date alone in another year. The full time belongs in its title.
 */
export function formatCompact(date: Date, now = new Date()): string {
  return date.getFullYear() === now.getFullYear()
    ? compactThisYear.format(date)
    : compactOtherYear.format(date);
}

/** "UTC 2024-05-01 12:30:05", for the hover title of a time. */
export function formatUtc(date: Date): string {
  return `UTC ${date.toISOString().slice(0, 19).replace('T', ' ')}`;
}
