import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { formatCompact, formatLocal, formatUtc, toDate } from '../../lib/format';

export interface TimeProps {
  value: Date | Timestamp | undefined;
  /** Shown when the time is not set (not started yet, never checked …). */
  fallback?: string;
  /** A short day and minute for narrow cells; the full local time and UTC move to the title. */
  compact?: boolean;
}

/** A time in the reader's zone, with UTC on hover: <time dateTime=ISO title="UTC …">. */
export function Time({ value, fallback = '—', compact = false }: TimeProps) {
  const date = value instanceof Date ? value : toDate(value);
  if (!date || Number.isNaN(date.getTime())) return <span className="muted">{fallback}</span>;
  if (compact) {
    return (
      <time
        className="time--compact"
        dateTime={date.toISOString()}
        title={`${formatLocal(date)} (${formatUtc(date)})`}
      >
        {formatCompact(date)}
      </time>
    );
  }
  return (
    <time dateTime={date.toISOString()} title={formatUtc(date)}>
      {formatLocal(date)}
    </time>
  );
}
