import { create } from '@bufbuild/protobuf';
import { durationFromMs, RetentionRulesResponseSchema } from '@store/contract';
import { describe, expect, it } from 'vitest';
import { applyLabel, draftFromResponse, parseRulesDraft, sameRules } from './rules-draft';

const empty = draftFromResponse(undefined);

describe('retention rules draft', () => {
  it('starts with every rule off and apply-after-schedule as the server says for new rules (off when it says nothing)', () => {
    expect(empty.counts.keepLast).toBe('');
    expect(empty.applyAfterSchedule).toBe(false);
    const serverDefaultOn = draftFromResponse(
      create(RetentionRulesResponseSchema, { configured: false, applyAfterSchedule: true }),
    );
    expect(serverDefaultOn.applyAfterSchedule).toBe(true);
    const parsed = parseRulesDraft(empty);
    expect(parsed.ok && parsed.rules).toMatchObject({ keepLast: 0, keepDaily: 0, timeZone: '' });
  });

  it('builds every rule kind, keep-within in the unit typed, and the zone trimmed', () => {
    const parsed = parseRulesDraft({
      ...empty,
      counts: { ...empty.counts, keepLast: '3', keepDaily: ' 7 ', keepYearly: '2' },
      withinAmount: '2',
      withinUnit: 'days',
      timeZone: ' Europe/Berlin ',
      applyAfterSchedule: false,
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.rules).toMatchObject({ keepLast: 3, keepDaily: 7, keepYearly: 2 });
    expect(parsed.rules.timeZone).toBe('Europe/Berlin');
    expect(parsed.withinMs).toBe(2 * 86_400_000);
    expect(Number(parsed.rules.keepWithin?.seconds)).toBe(2 * 86_400);
    expect(parsed.applyAfterSchedule).toBe(false);
  });

  it('names the field of a bad number', () => {
    const parsed = parseRulesDraft({
      ...empty,
      counts: { ...empty.counts, keepWeekly: '1.5' },
      withinAmount: '-1',
    });
    expect(parsed).toEqual({
      ok: false,
      errors: {
        keepWeekly: 'Enter a whole number (0 turns the rule off).',
        within: 'Enter a whole number (0 turns the rule off).',
      },
    });
  });

  it('reads stored rules back (48 h as 2 days) and tells unsaved changes from equal rules', () => {
    const stored = draftFromResponse(
      create(RetentionRulesResponseSchema, {
        configured: true,
        applyAfterSchedule: false,
        rules: { keepLast: 2, keepWithin: durationFromMs(48 * 3_600_000), timeZone: 'UTC' },
      }),
    );
    expect(stored.counts.keepLast).toBe('2');
    expect([stored.withinAmount, stored.withinUnit]).toEqual(['2', 'days']);
    expect(stored.applyAfterSchedule).toBe(false);
    expect(sameRules(stored, { ...stored, withinAmount: '48', withinUnit: 'hours' })).toBe(true);
    expect(sameRules(stored, { ...stored, counts: { ...stored.counts, keepLast: '3' } })).toBe(
      false,
    );
    expect(sameRules(stored, { ...stored, applyAfterSchedule: true })).toBe(false);
  });

  it('names count and bytes on the apply button', () => {
    expect(applyLabel(12n, '340 MiB')).toBe('Delete 12 backups (340 MiB)');
    expect(applyLabel(1n, '4 KiB')).toBe('Delete 1 backup (4 KiB)');
  });
});
