import { describe, expect, it } from 'vitest';
import { isoWeek, validateTimeZone } from './calendar-buckets.js';
import { planRetention, type RetentionCandidate } from './retention-plan.js';
import { NO_RULES, validateRules, type RetentionRules } from './retention-rules.js';

const at = (iso: string) => Date.parse(iso);

function backup(
  id: string,
  iso: string,
  extra: Partial<RetentionCandidate> = {},
): RetentionCandidate {
  return {
    id,
    name: `backup ${id}`,
    createdAt: at(iso),
    baseBackupId: null,
    setId: null,
    byteSize: 10,
    ...extra,
  };
}

const rules = (r: Partial<RetentionRules>): RetentionRules => ({ ...NO_RULES, ...r });

/** The ids the plan deletes, sorted, for comparison with a hand-computed set. */
function deletedOf(candidates: RetentionCandidate[], r: Partial<RetentionRules>, now?: number) {
  const latest = Math.max(...candidates.map((c) => c.createdAt));
  return [...planRetention(candidates, rules(r), { now: now ?? latest }).deleted].sort();
}

function reasonsOf(candidates: RetentionCandidate[], r: Partial<RetentionRules>, id: string) {
  const latest = Math.max(...candidates.map((c) => c.createdAt));
  const plan = planRetention(candidates, rules(r), { now: latest });
  return plan.kept.find((k) => k.id === id)?.reasons.map((x) => x.text);
}

describe('retention rules against hand-computed cases', () => {
  it("restic's documented example: daily backups for 100 years, --keep-daily 7 --keep-weekly 5 --keep-monthly 12 --keep-yearly 75", () => {
    // Ending on a Sunday: the 7 dailies are one ISO week, so 4 more weeklies (restic: "remember,
    // 7 dailies already include a week!"); those stay in November, so 11 more monthlies, the
    // last of which (Dec 2025) is also 2025's yearly; 73 more yearlies. 7 + 4 + 11 + 73 = 95.
    const end = Date.UTC(2026, 10, 29, 12);
    const candidates = Array.from({ length: 365 * 100 + 25 }, (_, d) => ({
      ...backup(`d${String(d).padStart(6, '0')}`, '2026-01-01T00:00:00Z'),
      createdAt: end - d * 86_400_000,
    }));
    const plan = planRetention(
      candidates,
      rules({ keepDaily: 7, keepWeekly: 5, keepMonthly: 12, keepYearly: 75 }),
      { now: end },
    );
    const count = (kind: string) =>
      plan.kept.filter((k) => k.reasons.some((r) => r.kind === kind)).length;
    expect([count('daily'), count('weekly'), count('monthly'), count('yearly')]).toEqual([
      7, 5, 12, 75,
    ]);
    expect(plan.kept).toHaveLength(95);
    expect(plan.deleted).toHaveLength(candidates.length - 95);
    expect(plan.bytesFreed).toBe((candidates.length - 95) * 10);
  });

  it('restic: a period counts only when it holds a backup (keep-daily 3 over gaps)', () => {
    const list = [
      backup('a', '2026-11-25T10:00:00Z'),
      backup('b', '2026-11-25T08:00:00Z'),
      // 24th: no backup, so it is not one of the three days.
      backup('c', '2026-11-23T09:00:00Z'),
      backup('d', '2026-11-20T09:00:00Z'),
      backup('e', '2026-11-19T09:00:00Z'),
      backup('f', '2026-11-18T09:00:00Z'),
    ];
    expect(deletedOf(list, { keepDaily: 3 })).toEqual(['b', 'e', 'f']);
    expect(reasonsOf(list, { keepDaily: 3 }, 'd')).toEqual(['daily 2026-11-20']);
  });

  it('keeps the oldest backup as well when a period count is not used up (restic ≥ 0.17)', () => {
    const list = [
      backup('a', '2026-11-25T10:00:00Z'),
      backup('b', '2026-11-25T08:00:00Z'),
      backup('c', '2026-11-25T06:00:00Z'),
    ];
    expect(deletedOf(list, { keepDaily: 5 })).toEqual(['b']);
    expect(reasonsOf(list, { keepDaily: 5 }, 'c')).toEqual(['oldest (daily count not used up)']);
  });

  it('keep-last and keep-within combine as "or"', () => {
    const list = [
      backup('a', '2026-11-25T12:00:00Z'),
      backup('b', '2026-11-25T00:30:00Z'),
      backup('c', '2026-11-24T00:30:00Z'),
      backup('d', '2026-11-23T11:00:00Z'),
    ];
    // Within 36 h of the newest (a): b and c; keep-last 1: a.
    expect(deletedOf(list, { keepLast: 1, keepWithinMs: 36 * 3_600_000 })).toEqual(['d']);
    expect(reasonsOf(list, { keepLast: 1, keepWithinMs: 36 * 3_600_000 }, 'a')).toEqual([
      'last 1 of 1',
      'within 1d 12h',
    ]);
  });

  it('month boundary: buckets follow the zone (UTC vs Europe/Berlin)', () => {
    const list = [
      backup('feb', '2026-02-01T00:30:00Z'),
      backup('jan-end', '2026-01-31T23:30:00Z'),
      backup('jan-mid', '2026-01-15T12:00:00Z'),
    ];
    expect(deletedOf(list, { keepMonthly: 2 })).toEqual(['jan-mid']);
    // 23:30Z on the 31st is 00:30 on 1 February in Berlin: the same month as the newest.
    expect(deletedOf(list, { keepMonthly: 2, timeZone: 'Europe/Berlin' })).toEqual(['jan-end']);
  });

  it('year boundary: yearly buckets and ISO weeks that straddle New Year', () => {
    const years = [
      backup('y26', '2026-01-01T00:00:00Z'),
      backup('y25-last', '2025-12-31T23:59:59Z'),
      backup('y25', '2025-06-01T00:00:00Z'),
      backup('y24', '2024-06-01T00:00:00Z'),
    ];
    expect(deletedOf(years, { keepYearly: 2 })).toEqual(['y24', 'y25']);
    // 29 Dec 2025 (Monday) is in ISO week 2026-W01 with 1 Jan 2026; 28 Dec is 2025-W52.
    const weeks = [
      backup('jan1', '2026-01-01T12:00:00Z'),
      backup('dec29', '2025-12-29T12:00:00Z'),
      backup('dec28', '2025-12-28T12:00:00Z'),
      backup('dec20', '2025-12-20T12:00:00Z'),
    ];
    expect(deletedOf(weeks, { keepWeekly: 2 })).toEqual(['dec20', 'dec29']);
    expect(reasonsOf(weeks, { keepWeekly: 2 }, 'dec28')).toEqual(['weekly 2025-W52']);
    expect(isoWeek(2025, 12, 29)).toEqual({ year: 2026, week: 1 });
    expect(isoWeek(2027, 1, 1)).toEqual({ year: 2026, week: 53 });
  });

  it('DST change in Europe/Berlin: the repeated autumn hour is one hourly bucket', () => {
    // 25 Oct 2026: 03:00 CEST becomes 02:00 CET at 01:00Z, so 00:xxZ and 01:xxZ are both 02:xx.
    const list = [
      backup('h3', '2026-10-25T02:10:00Z'),
      backup('cet-40', '2026-10-25T01:40:00Z'),
      backup('cet-10', '2026-10-25T01:10:00Z'),
      backup('cest-40', '2026-10-25T00:40:00Z'),
      backup('cest-10', '2026-10-25T00:10:00Z'),
      backup('h1', '2026-10-24T23:50:00Z'),
    ];
    expect(deletedOf(list, { keepHourly: 3, timeZone: 'Europe/Berlin' })).toEqual([
      'cest-10',
      'cest-40',
      'cet-10',
    ]);
    expect(reasonsOf(list, { keepHourly: 3, timeZone: 'Europe/Berlin' }, 'cet-40')).toEqual([
      'hourly 2026-10-25 02h',
    ]);
    // In UTC the same backups fill three different hours sooner.
    expect(deletedOf(list, { keepHourly: 3 })).toEqual(['cest-10', 'cet-10', 'h1']);
    // Spring: 29 Mar 2026 01:00Z jumps from 02:00 CET to 03:00 CEST; 01:59 and 03:00 local
    // are adjacent hours, and the day is still one daily bucket.
    const spring = [
      backup('after', '2026-03-29T01:00:00Z'),
      backup('before', '2026-03-29T00:59:00Z'),
      backup('day-before', '2026-03-28T22:59:00Z'),
    ];
    expect(deletedOf(spring, { keepHourly: 2, timeZone: 'Europe/Berlin' })).toEqual(['day-before']);
    expect(deletedOf(spring, { keepDaily: 1, timeZone: 'Europe/Berlin' })).toEqual([
      'before',
      'day-before',
    ]);
  });

  it('equal timestamps: the larger id counts as newer, whatever the input order', () => {
    const list = [
      backup('b', '2026-11-25T10:00:00Z'),
      backup('c', '2026-11-25T10:00:00Z'),
      backup('a', '2026-11-25T10:00:00Z'),
    ];
    expect(deletedOf(list, { keepLast: 1 })).toEqual(['a', 'b']);
    expect(deletedOf([...list].reverse(), { keepDaily: 1 })).toEqual(['a', 'b']);
  });

  it('no rules: nothing is deleted', () => {
    const list = [backup('a', '2026-11-25T10:00:00Z'), backup('b', '2026-11-20T10:00:00Z')];
    const plan = planRetention(list, NO_RULES, { now: Date.now() });
    expect(plan.deleted).toEqual([]);
    expect(plan.kept.map((k) => k.reasons[0]?.kind)).toEqual(['no_rules', 'no_rules']);
  });
});

describe('retention keeps whole chains, protected backups and sets', () => {
  const chain = [
    backup('f1', '2026-11-20T00:00:00Z'),
    backup('i1', '2026-11-21T00:00:00Z', { baseBackupId: 'f1' }),
    backup('i2', '2026-11-22T00:00:00Z', { baseBackupId: 'i1' }),
    backup('f0', '2026-11-10T00:00:00Z'),
    backup('j1', '2026-11-11T00:00:00Z', { baseBackupId: 'f0' }),
    backup('j2', '2026-11-12T00:00:00Z', { baseBackupId: 'j1' }),
  ];

  it('an incremental is kept with every link down to its full; others go incrementals first', () => {
    const plan = planRetention(chain, rules({ keepLast: 1 }), { now: at('2026-11-23T00:00:00Z') });
    expect(plan.kept.map((k) => [k.id, k.reasons.map((r) => r.text)])).toEqual([
      ['i2', ['last 1 of 1']],
      ['i1', ['base of backup i2']],
      ['f1', ['base of backup i1']],
    ]);
    expect(plan.deleted).toEqual(['j2', 'j1', 'f0']);
  });

  it('a protected incremental keeps its chain; protecting a full does not keep its dependants', () => {
    const protectedJ1 = chain.map((c) =>
      c.id === 'j1' ? { ...c, protection: { by: 'alice', reason: 'legal hold' } } : c,
    );
    const plan = planRetention(protectedJ1, rules({ keepLast: 1 }), { now: Date.now() });
    expect(plan.kept.find((k) => k.id === 'j1')?.reasons[0]?.text).toBe(
      'protected by alice: legal hold',
    );
    expect(plan.kept.find((k) => k.id === 'f0')?.reasons[0]?.text).toBe('base of backup j1');
    expect(plan.deleted).toEqual(['j2']);
  });

  it('a set member is kept when its set has a member kept here or in another scope', () => {
    const list = [
      backup('new', '2026-11-25T00:00:00Z'),
      backup('s1', '2026-11-20T00:00:00Z', { setId: 'set_1', name: 'nightly set' }),
      backup('s2', '2026-11-19T00:00:00Z', { setId: 'set_2', name: 'weekly set' }),
    ];
    const plan = planRetention(list, rules({ keepLast: 1 }), {
      now: Date.now(),
      keptSetsElsewhere: new Set(['set_1']),
    });
    expect(plan.kept.find((k) => k.id === 's1')?.reasons).toEqual([
      { kind: 'set', text: 'member of set nightly set' },
    ]);
    expect(plan.deleted).toEqual(['s2']);
    expect([...plan.keptSetIds]).toEqual(['set_1']);
  });
});

describe('rule validation', () => {
  it('refuses negative counts, unknown zones and resolves the zone name', () => {
    expect(() => validateRules(rules({ keepDaily: -1 }))).toThrow(/keep_daily/);
    expect(() => validateRules(rules({ keepLast: 1.5 }))).toThrow(/keep_last/);
    expect(() => validateRules(rules({ timeZone: 'Mars/Olympus' }))).toThrow(/time_zone/);
    expect(validateRules(rules({ timeZone: '' })).timeZone).toBe('UTC');
    expect(validateTimeZone('europe/berlin')).toBe('Europe/Berlin');
  });
});
