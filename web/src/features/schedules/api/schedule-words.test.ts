import { create } from '@bufbuild/protobuf';
import {
  BackupScopeRunOutcome,
  durationFromMs,
  LastScheduleRunSchema,
  ScheduleAnchorSchema,
  ScheduleCadenceSchema,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import { describeCadence, describeLastRun, relativeTime, shortInterval } from './schedule-words';

const HOUR = 3_600_000;

describe('schedules in words', () => {
  it('says a cadence with its anchor as the issue reads it', () => {
    const daily = create(ScheduleCadenceSchema, { interval: durationFromMs(24 * HOUR) });
    const berlin = create(ScheduleAnchorSchema, { timeOfDay: '02:00', timeZone: 'Europe/Berlin' });
    expect(describeCadence(daily, berlin)).toBe('every 24 h at 02:00 Europe/Berlin');
    expect(describeCadence(daily, undefined)).toBe('every 24 h');
    expect(describeCadence(undefined, berlin)).toBe('Not scheduled');
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
