import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { formatLocal, formatUtc, toDate } from '../../lib/format';

export interface TimeProps {
  value: Date | Timestamp | undefined;
  /** Shown when the time is not set (not started yet, never checked …). */
  fallback?: string;
}

/** A time in the reader's zone, with UTC on hover: <time dateTime=ISO title="UTC …">. */
export function Time({ value, fallback = '—' }: TimeProps) {
  const date = value instanceof Date ? value : toDate(value);
  if (!date || Number.isNaN(date.getTime())) return <span className="muted">{fallback}</span>;
  return (
    <time dateTime={date.toISOString()} title={formatUtc(date)}>
      {formatLocal(date)}
    </time>
  );
}
