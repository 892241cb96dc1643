import { formatInZone } from '../utils/schedule-zone';

/** A time in the zone shown on the schedules pages, the zone named: "Fri 27 Nov, 14:00 UTC". */
export function ZonedTime({ ms, zone }: { ms: number; zone: string }) {
  const date = new Date(ms);
  return <time dateTime={date.toISOString()}>{formatInZone(ms, zone)}</time>;
}
