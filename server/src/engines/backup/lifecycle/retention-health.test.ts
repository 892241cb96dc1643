import { describe, expect, it } from 'vitest';
import { catalogFingerprint } from './catalog-fingerprint.js';
import { catalogOfCandidates, type CatalogDamage } from './retention-catalog.js';
import { planRetention, type RetentionCandidate } from './retention-plan.js';
import { NO_RULES, type RetentionRules } from './retention-rules.js';

const DAY = 86_400_000;
const END = Date.UTC(2026, 10, 27, 12);
const FOUND = END - 3 * 3_600_000;

/** `days` ago, a full backup named after its id. */
function backup(id: string, days: number, extra: Partial<RetentionCandidate> = {}) {
  return {
    id,
    name: `full ${id}`,
    createdAt: END - days * DAY,
    baseBackupId: null,
    setId: null,
    byteSize: 10,
    ...extra,
  };
}

const corrupt: CatalogDamage = { status: 'CORRUPT', since: FOUND };
const missing: CatalogDamage = { status: 'MISSING', since: FOUND };
const rules = (r: Partial<RetentionRules>): RetentionRules => ({ ...NO_RULES, ...r });

function planOf(candidates: RetentionCandidate[], r: Partial<RetentionRules>) {
  const plan = planRetention(candidates, rules(r), { now: END });
  const reasons = (id: string) => plan.kept.find((k) => k.id === id)?.reasons;
  return { plan, reasons, kept: plan.kept.map((k) => k.id), deleted: [...plan.deleted].sort() };
}

describe('retention knows health', () => {
  // The admin's case: full 1..4, the newest (full 4) found corrupt, keep-last 2.
  const fulls = [backup('f1', 3), backup('f2', 2), backup('f3', 1), backup('f4', 0)];

  it('a corrupt backup does not count toward keep-last: the two newest healthy ones are kept in its place, and it stays by a reason of its own', () => {
    const healthy = planOf(fulls, { keepLast: 2 });
    expect(healthy.kept).toEqual(['f4', 'f3']);
    const damaged = planOf(
      fulls.map((b) => (b.id === 'f4' ? { ...b, damage: corrupt } : b)),
      { keepLast: 2 },
    );
    expect(damaged.kept).toEqual(['f4', 'f3', 'f2']);
    expect(damaged.deleted).toEqual(['f1']);
    expect(damaged.reasons('f3')?.map((r) => r.text)).toEqual(['last 1 of 2']);
    expect(damaged.reasons('f2')?.map((r) => r.text)).toEqual(['last 2 of 2']);
    expect(damaged.reasons('f4')).toEqual([
      {
        kind: 'damaged',
        text: 'corrupt: kept until deleted by hand, never counted by a rule',
        since: FOUND,
      },
    ]);
  });

  it('a missing backup does not count toward keep-daily (nor the oldest-backup rule), and is never deleted even when old', () => {
    const list = [
      backup('d0', 0),
      backup('d1', 1, { damage: missing }),
      backup('d2', 2),
      backup('d3', 3),
      backup('d9', 9, { damage: missing }),
    ];
    const { kept, deleted, reasons } = planOf(list, { keepDaily: 3 });
    expect(deleted).toEqual([]);
    expect(kept).toEqual(['d0', 'd1', 'd2', 'd3', 'd9']);
    expect(reasons('d3')?.map((r) => r.kind)).toEqual(['daily']);
    expect(reasons('d1')?.map((r) => r.text)).toEqual([
      'files missing: kept until deleted by hand, never counted by a rule',
    ]);
    expect(reasons('d9')?.map((r) => r.kind)).toEqual(['damaged']);
    // With one daily fewer, the third healthy one goes: the missing ones took no slot.
    expect(planOf(list, { keepDaily: 2 }).deleted).toEqual(['d3']);
  });

  it('keep-within counts back from the newest healthy backup, and a degraded one keeps its chain', () => {
    const list = [
      backup('new', 0, { damage: { status: 'DEGRADED', since: FOUND } }),
      backup('inc', 1, { baseBackupId: 'base', damage: corrupt }),
      backup('base', 2),
      backup('old', 5),
    ];
    const { kept, deleted, reasons } = planOf(list, { keepWithinMs: 1.5 * DAY });
    // Newest healthy is "base" (2 days ago): within 1.5 days of it, only itself.
    expect(reasons('base')?.map((r) => r.kind)).toEqual(['within', 'base']);
    expect(reasons('new')?.[0]?.text).toBe(
      'degraded (its chain or manifest is damaged): kept until deleted by hand, never counted by a rule',
    );
    expect(kept).toEqual(['new', 'inc', 'base']);
    expect(deleted).toEqual(['old']);
  });

  it('a scope without rules keeps a damaged backup by its damage, not as "no retention rules"', () => {
    const { reasons } = planOf([backup('a', 0, { damage: corrupt }), backup('b', 1)], {});
    expect(reasons('a')?.map((r) => r.kind)).toEqual(['damaged']);
    expect(reasons('b')?.map((r) => r.kind)).toEqual(['no_rules']);
  });

  it('the fingerprint covers damage: found, its kind and since when (and is unchanged without any)', () => {
    const scope = { treeName: 'orders', keyPrefix: '' };
    const of = (list: RetentionCandidate[]) =>
      catalogFingerprint(scope, NO_RULES, catalogOfCandidates(list));
    const clean = of(fulls);
    const withCorrupt = of(fulls.map((b) => (b.id === 'f3' ? { ...b, damage: corrupt } : b)));
    const withMissing = of(fulls.map((b) => (b.id === 'f3' ? { ...b, damage: missing } : b)));
    const later = of(
      fulls.map((b) => (b.id === 'f3' ? { ...b, damage: { ...corrupt, since: FOUND + 1 } } : b)),
    );
    const other = of(fulls.map((b) => (b.id === 'f2' ? { ...b, damage: corrupt } : b)));
    expect(new Set([clean, withCorrupt, withMissing, later, other]).size).toBe(5);
    expect(of([...fulls].reverse())).toBe(clean);
  });
});
