import { create } from '@bufbuild/protobuf';
import {
  DrillPlanBackupChoice,
  RestoreDrillPlanSchema,
  durationFromMs,
  durationToMs,
} from '@store/contract';
import { describe, expect, it } from 'vitest';
import { draftOf, requestOf } from './drill-plan-draft';
import { describeChoice, describeWhen } from './drill-plan-words';

const SCOPE = { treeId: 'ledger', keyPrefix: '' };

describe('drill plan drafts', () => {
  it('sends a daily plan at a time of day in a zone, and nothing of a window it does not use', () => {
    const check = requestOf(
      { ...draftOf(), name: ' nightly ', timeOfDay: '02:30', timeZone: 'Europe/Berlin' },
      SCOPE,
    );
    if (!check.ok) throw new Error(JSON.stringify(check.errors));
    expect(check.request).toMatchObject({
      scope: { treeId: 'ledger' },
      name: 'nightly',
      cadence: { timeOfDay: '02:30', timeZone: 'Europe/Berlin' },
      choice: DrillPlanBackupChoice.NEWEST,
      maxEntriesPerSecond: 0,
      paused: false,
    });
    expect(durationToMs(check.request.cadence?.interval as never)).toBe(86_400_000);
    expect(check.request.window).toBeUndefined();
  });

  it('an on-demand plan has no cadence; a random one has its window', () => {
    const check = requestOf(
      {
        ...draftOf(),
        name: 'p',
        scheduled: false,
        choice: DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW,
        windowAmount: '3',
        windowUnit: 'days',
      },
      { treeId: 'ledger', keyPrefix: 'eu/' },
    );
    if (!check.ok) throw new Error(JSON.stringify(check.errors));
    expect(check.request.cadence).toBeUndefined();
    expect(check.request.scope).toEqual({ treeId: 'ledger', keyPrefix: 'eu/' });
    expect(durationToMs(check.request.window as never)).toBe(3 * 86_400_000);
  });

  it('names every wrong field in words', () => {
    const check = requestOf(
      {
        ...draftOf(),
        name: '',
        amount: '0',
        timeOfDay: '7pm',
        timeZone: 'Mars/Base',
        choice: DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW,
        windowAmount: 'x',
        maxEntriesPerSecond: '-1',
      },
      SCOPE,
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors).toEqual({
      name: 'Enter a name for the plan.',
      interval: 'The interval must be greater than zero.',
      timeOfDay: 'Enter a time as HH:mm, for example 02:00.',
      timeZone: 'Mars/Base is not a time zone this browser knows.',
      window: 'Enter a whole number.',
      rate: 'A whole number from 0 (no limit) to 10 000 000.',
    });
  });

  it('an edited plan starts from its settings; its cadence and choice read in words', () => {
    const plan = create(RestoreDrillPlanSchema, {
      name: 'weekly',
      cadence: { interval: durationFromMs(7 * 86_400_000), timeOfDay: '03:00', timeZone: 'UTC' },
      choice: DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW,
      window: durationFromMs(30 * 86_400_000),
      maxEntriesPerSecond: 500,
      paused: true,
    });
    expect(draftOf(plan)).toMatchObject({
      name: 'weekly',
      scheduled: true,
      amount: '7',
      unit: 'days',
      anchored: true,
      timeOfDay: '03:00',
      timeZone: 'UTC',
      windowAmount: '30',
      maxEntriesPerSecond: '500',
      paused: true,
    });
    expect(describeWhen(plan)).toBe('Every 7 days at 03:00 (UTC)');
    expect(describeChoice(plan)).toBe('A random backup of the last 30 days');
    expect(describeWhen({ cadence: undefined })).toBe('On demand');
  });
});
