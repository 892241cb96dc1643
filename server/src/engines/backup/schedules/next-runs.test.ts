import { describe, expect, it } from 'vitest';
import {
  firstRunAfter,
  formatTimeOfDay,
  parseTimeOfDay,
  plannedRuns,
  runAfter,
  type Cadence,
} from './next-runs.js';
import { instantOfWallClock, wallClockOf } from './zoned-time.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const utc = (text: string) => Date.parse(`${text}Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const berlin = (minuteOfDay: number, intervalMs: number, minIntervalMs = MINUTE): Cadence => ({
  intervalMs,
  anchor: { minuteOfDay, timeZone: 'Europe/Berlin' },
  minIntervalMs,
});

describe('wall-clock time in a zone', () => {
  it('resolves a time the clocks skip forward past the gap, and a repeated time to its first instant', () => {
    // Berlin skips 02:00–03:00 on 2026-03-29 and repeats 02:00–03:00 on 2026-10-25.
    expect(iso(instantOfWallClock(utc('2026-03-29T02:30'), 'Europe/Berlin'))).toBe(
      '2026-03-29T01:30',
    );
    expect(iso(instantOfWallClock(utc('2026-10-25T02:30'), 'Europe/Berlin'))).toBe(
      '2026-10-25T00:30',
    );
    expect(iso(instantOfWallClock(utc('2026-07-01T12:00'), 'Europe/Berlin'))).toBe(
      '2026-07-01T10:00',
    );
    expect(iso(wallClockOf(utc('2026-01-15T23:30'), 'Europe/Berlin'))).toBe('2026-01-16T00:30');
  });
});

describe('next runs of a schedule', () => {
  it('without an anchor, runs every interval from registration and from each firing', () => {
    const cadence: Cadence = { intervalMs: 2 * HOUR, anchor: null, minIntervalMs: MINUTE };
    const now = utc('2026-05-01T10:17');
    expect(iso(firstRunAfter(now, cadence))).toBe('2026-05-01T12:17');
    // A late firing moves the cadence along from when it fired.
    expect(iso(runAfter(now, now + 5 * MINUTE, cadence))).toBe('2026-05-01T12:22');
    expect(plannedRuns(now, 3, cadence).map(iso)).toEqual([
      '2026-05-01T10:17',
      '2026-05-01T12:17',
      '2026-05-01T14:17',
    ]);
  });

  it('anchored every 24 h at 02:00 Europe/Berlin: the first run is the next 02:00, then daily', () => {
    // 15:00 in Berlin (summer time): the next 02:00 is tomorrow's, 00:00 UTC.
    const first = firstRunAfter(utc('2026-06-10T13:00'), berlin(120, 24 * HOUR));
    expect(iso(first)).toBe('2026-06-11T00:00');
    expect(plannedRuns(first, 3, berlin(120, 24 * HOUR)).map(iso)).toEqual([
      '2026-06-11T00:00',
      '2026-06-12T00:00',
      '2026-06-13T00:00',
    ]);
    // Registered at 01:59 local, it runs in a minute.
    expect(iso(firstRunAfter(utc('2026-06-10T23:59'), berlin(120, 24 * HOUR)))).toBe(
      '2026-06-11T00:00',
    );
  });

  it('stays at 02:00 local across the change to summer time (the skipped 02:00 runs at 03:00) and back', () => {
    const daily = berlin(120, 24 * HOUR);
    expect(plannedRuns(utc('2026-03-27T01:00'), 4, daily).map(iso)).toEqual([
      '2026-03-27T01:00', // 02:00 CET
      '2026-03-28T01:00', // 02:00 CET
      '2026-03-29T01:00', // 02:00 does not exist: 03:00 CEST
      '2026-03-30T00:00', // 02:00 CEST
    ]);
    expect(plannedRuns(utc('2026-10-24T00:00'), 3, daily).map(iso)).toEqual([
      '2026-10-24T00:00', // 02:00 CEST
      '2026-10-25T00:00', // 02:00 happens twice: the first, still CEST
      '2026-10-26T01:00', // 02:00 CET
    ]);
  });

  it('under a day, each local day starts over at the anchor', () => {
    const sixHours = berlin(120, 6 * HOUR);
    const local = (runs: number[]) =>
      runs.map((r) => iso(wallClockOf(r, 'Europe/Berlin')).slice(11));
    expect(local(plannedRuns(utc('2026-06-11T00:00'), 5, sixHours))).toEqual([
      '02:00',
      '08:00',
      '14:00',
      '20:00',
      '02:00',
    ]);
    const fiveHours = berlin(120, 5 * HOUR);
    expect(local(plannedRuns(utc('2026-06-11T00:00'), 6, fiveHours))).toEqual([
      '02:00',
      '07:00',
      '12:00',
      '17:00',
      '22:00',
      '02:00',
    ]);
    // Registered at 09:30 local: the next slot of the day, 14:00.
    expect(local([firstRunAfter(utc('2026-06-11T07:30'), sixHours)])).toEqual(['14:00']);
  });

  it("a day or more runs at the anchor every interval's worth of local days, rounded up", () => {
    const days = (runs: number[]) => runs.map((r) => iso(wallClockOf(r, 'Europe/Berlin')));
    expect(days(plannedRuns(utc('2026-06-11T00:00'), 3, berlin(120, 48 * HOUR)))).toEqual([
      '2026-06-11T02:00',
      '2026-06-13T02:00',
      '2026-06-15T02:00',
    ]);
    expect(days(plannedRuns(utc('2026-06-11T00:00'), 2, berlin(120, 36 * HOUR)))).toEqual([
      '2026-06-11T02:00',
      '2026-06-13T02:00',
    ]);
  });

  it('a late firing skips the slots it missed instead of catching up', () => {
    const daily = berlin(120, 24 * HOUR);
    const planned = utc('2026-06-11T00:00');
    // The server was down for two and a half days.
    expect(iso(runAfter(planned, utc('2026-06-13T12:00'), daily))).toBe('2026-06-14T00:00');
  });

  it('never puts two runs closer than the scheduler minimum, even where the clocks skip an hour', () => {
    // Every 61 min from 01:59: the next slot, 03:00, comes one real minute after 01:59 CET on
    // the day Berlin skips 02:00–03:00. With a one-hour minimum it is passed over.
    const squeezed = berlin(119, 61 * MINUTE, HOUR);
    const before = utc('2026-03-29T00:59'); // 01:59 CET
    expect(iso(runAfter(before, before, squeezed))).toBe('2026-03-29T02:01'); // 04:01 CEST
    // With a one-minute minimum the squeezed slot stands.
    expect(iso(runAfter(before, before, berlin(119, 61 * MINUTE)))).toBe('2026-03-29T01:00');
  });

  it('reads and writes a time of day as 24-hour HH:mm only', () => {
    expect(parseTimeOfDay('02:00')).toBe(120);
    expect(parseTimeOfDay('23:59')).toBe(1439);
    for (const bad of ['24:00', '2:00', '02:60', '02:00:00', ' 02:00', '']) {
      expect(parseTimeOfDay(bad), bad).toBeUndefined();
    }
    expect(formatTimeOfDay(120)).toBe('02:00');
    expect(formatTimeOfDay(1439)).toBe('23:59');
  });
});
