import type { ScheduleAnchor, ScheduleCadence } from '@store/contract';
import { durationToMs } from '@store/contract';
import { msOf, shortInterval } from './schedule-words';

/**
 * The schedules pages show every time in one zone, named beside it: the schedule's own (its
 * anchor's zone; UTC without an anchor, the zone the server names its backups in) or the
 * browser's, as the reader switches.
 */
export type ZoneChoice = 'schedule' | 'browser';

/** The zone this browser runs in ("Europe/Paris"). */
export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The zone a schedule names its runs and backups in: its anchor's, UTC without one. */
export function scheduleZone(anchor: ScheduleAnchor | undefined): string {
  return anchor?.timeZone ?? 'UTC';
}

/** The zone to show a schedule's times in, for the reader's choice. */
export function shownZone(choice: ZoneChoice, anchor: ScheduleAnchor | undefined): string {
  return choice === 'browser' ? browserZone() : scheduleZone(anchor);
}

const formats = new Map<string, { day: Intl.DateTimeFormat; hm: Intl.DateTimeFormat }>();

function formatsOf(zone: string) {
  let format = formats.get(zone);
  if (!format) {
    format = {
      day: new Intl.DateTimeFormat(undefined, {
        timeZone: zone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
      }),
      hm: new Intl.DateTimeFormat('en-GB', {
        timeZone: zone,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }),
    };
    formats.set(zone, format);
  }
  return format;
}

/** "14:00" in the zone (24-hour). */
export function timeOfDayIn(ms: number, zone: string): string {
  return formatsOf(zone).hm.format(ms);
}

/** "Fri 27 Nov, 14:00 Europe/Paris": a day, a 24-hour time and the zone's name. */
export function formatInZone(ms: number, zone: string): string {
  const format = formatsOf(zone);
  return `${format.day.format(ms)}, ${format.hm.format(ms)} ${zone}`;
}

function minutesOf(hhmm: string): number {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/**
 * The anchor's time of day as read in another zone, on the day of `at` (a run of the cadence):
 * 02:00 Europe/Berlin is 01:00 Europe/London in winter. The shift is measured at `at`, so it
 * follows daylight saving time on that day.
 */
export function anchorTimeIn(anchor: ScheduleAnchor, zone: string, at: number): string {
  if (zone === anchor.timeZone) return anchor.timeOfDay;
  const shift = minutesOf(timeOfDayIn(at, zone)) - minutesOf(timeOfDayIn(at, anchor.timeZone));
  const minutes = (((minutesOf(anchor.timeOfDay) + shift) % 1440) + 1440) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * A cadence in words, its time of day in `zone` and labelled: "every 24 h at 02:00
 * Europe/Berlin"; "every 6 h" when no time of day anchors it.
 */
export function describeCadenceIn(
  cadence: ScheduleCadence | undefined,
  anchor: ScheduleAnchor | undefined,
  zone: string,
): string {
  if (!cadence) return 'Not scheduled';
  const every = `every ${shortInterval(durationToMs(cadence.interval))}`;
  if (!anchor) return every;
  return `${every} at ${anchorTimeIn(anchor, zone, msOf(cadence.nextRunTime))} ${zone}`;
}
