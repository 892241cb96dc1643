import { create } from '@bufbuild/protobuf';
import {
  BackupScopeRunOutcome,
  durationFromMs,
  LastScheduleRunSchema,
  ScheduleAnchorSchema,
  ScheduleCadenceSchema,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import { describeLastRun, relativeTime, shortInterval } from './schedule-words';
import { anchorTimeIn, describeCadenceIn } from './schedule-zone';

const HOUR = 3_600_000;

describe('schedules in words', () => {
  it("reads a time of day in another zone on the run's day, daylight saving time included", () => {
    const berlin = create(ScheduleAnchorSchema, { timeOfDay: '02:00', timeZone: 'Europe/Berlin' });
    // 02:00 in Berlin is 01:00 UTC in January (CET) and 00:00 UTC in July (CEST).
    expect(anchorTimeIn(berlin, 'UTC', Date.UTC(2030, 0, 15, 1))).toBe('01:00');
    expect(anchorTimeIn(berlin, 'UTC', Date.UTC(2030, 6, 15, 0))).toBe('00:00');
    // Across midnight: 02:00 in Berlin is 20:00 the evening before in New York.
    expect(anchorTimeIn(berlin, 'America/New_York', Date.UTC(2030, 0, 15, 1))).toBe('20:00');
    expect(anchorTimeIn(berlin, 'Europe/Berlin', 0)).toBe('02:00');
  });

  it('says a cadence with its anchor as the issue reads it', () => {
    const daily = create(ScheduleCadenceSchema, { interval: durationFromMs(24 * HOUR) });
    const berlin = create(ScheduleAnchorSchema, { timeOfDay: '02:00', timeZone: 'Europe/Berlin' });
    expect(describeCadenceIn(daily, berlin, 'Europe/Berlin')).toBe(
      'every 24 h at 02:00 Europe/Berlin',
    );
    expect(describeCadenceIn(daily, undefined, 'UTC')).toBe('every 24 h');
    expect(describeCadenceIn(undefined, berlin, 'UTC')).toBe('Not scheduled');
    expect([shortInterval(30 * 60_000), shortInterval(90_000), shortInterval(1_000)]).toEqual([
      '30 min',
      '90 s',
      '1 s',
    ]);
  });

  it('says how far a run is, ahead or behind', () => {
    const now = Date.parse('2026-06-01T12:00:00Z');
    expect(relativeTime(now + 3 * HOUR + 5 * 60_000, now)).toBe('in 3 h 5 min');
    expect(relativeTime(now + 2 * HOUR, now)).toBe('in 2 h');
    expect(relativeTime(now + HOUR - 100, now)).toBe('in 1 h');
    expect(relativeTime(now + 40_000, now)).toBe('in 40 s');
    expect(relativeTime(now - 12 * 60_000, now)).toBe('12 min ago');
    expect(relativeTime(now + 3 * 24 * HOUR, now)).toBe('in 3 days');
    expect(relativeTime(now + 200, now)).toBe('due now');
  });

  it('says a skipped run with its reason', () => {
    const skipped = create(LastScheduleRunSchema, {
      incremental: true,
      outcome: BackupScopeRunOutcome.SKIPPED,
      reason: 'no change since orders full 2026-06-01 02:00 UTC',
    });
    expect(describeLastRun(skipped)).toEqual({
      text: 'Incremental run skipped: no change since orders full 2026-06-01 02:00 UTC',
      tone: 'warning',
    });
    const ok = create(LastScheduleRunSchema, { outcome: BackupScopeRunOutcome.SUCCEEDED });
    expect(describeLastRun(ok)).toEqual({ text: 'Full backup succeeded', tone: 'success' });
    expect(describeLastRun(undefined).text).toBe('No run yet');
  });
});
