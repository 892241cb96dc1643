import { describe, expect, it } from 'vitest';
import { catalogFingerprint } from './catalog-fingerprint.js';
import { catalogOfCandidates } from './retention-catalog.js';
import { planRetention, type RetentionCandidate } from './retention-plan.js';
import { NO_RULES, type RetentionRules } from './retention-rules.js';

const DAY = 86_400_000;
const END = Date.UTC(2026, 10, 27, 12);

function backup(id: string, days: number, extra: Partial<RetentionCandidate> = {}) {
  return {
    id,
    name: id,
    createdAt: END - days * DAY,
    baseBackupId: null,
    setId: null,
    byteSize: 10,
    ...extra,
  };
}

function planOf(candidates: RetentionCandidate[], r: Partial<RetentionRules>) {
  const plan = planRetention(candidates, { ...NO_RULES, ...r }, { now: END });
  const reasons = (id: string) => plan.kept.find((k) => k.id === id)?.reasons;
  return { plan, reasons, kept: plan.kept.map((k) => k.id), deleted: [...plan.deleted].sort() };
}

// Issue 36 bullet 4: the newest backup a drill proved restorable is kept, with its chain.
describe('retention knows proof', () => {
  // f1 ← i1 ← i2 (a chain, i2 proven), then fulls f2, f3; keep-last 2 keeps f3 and f2 only.
  const list = [
    backup('f1', 6),
    backup('i1', 5, { baseBackupId: 'f1' }),
    backup('i2', 4, { baseBackupId: 'i1', proven: true }),
    backup('old', 3, { proven: false }),
    backup('f2', 2),
    backup('f3', 1),
  ];

  it('keeps the newest proven backup and its whole chain by their own reason, saying the rules alone would delete them', () => {
    const { kept, deleted, reasons } = planOf(list, { keepLast: 2 });
    expect(kept).toEqual(['f3', 'f2', 'i2', 'i1', 'f1']);
    expect(deleted).toEqual(['old']);
    expect(reasons('i2')).toEqual([
      {
        kind: 'proven_restorable',
        text: 'newest proven restorable: your rules alone would delete it',
      },
    ]);
    expect(reasons('i1')?.map((r) => [r.kind, r.text])).toEqual([
      [
        'proven_restorable',
        'in the chain of the newest proven restorable backup: your rules alone would delete it',
      ],
      ['base', 'base of i2'],
    ]);
    expect(reasons('f1')?.map((r) => r.kind)).toEqual(['proven_restorable', 'base']);
  });

  it('a proven backup the rules keep anyway gets the reason too, without the warning', () => {
    const kept = planOf(list, { keepLast: 4 });
    expect(kept.reasons('i2')?.map((r) => r.text)).toEqual([
      'last 4 of 4',
      'newest proven restorable',
    ]);
    expect(kept.reasons('i1')?.map((r) => r.text)).toEqual([
      'base of i2',
      'in the chain of the newest proven restorable backup',
    ]);
    // keep-last 3 keeps old (not proven); i2 is kept only by proof.
    expect(planOf(list, { keepLast: 3 }).kept).toEqual(['f3', 'f2', 'old', 'i2', 'i1', 'f1']);
  });

  it('only the newest proven backup is kept: a newer proof moves the keep, and a damaged one passes it on', () => {
    const newer = list.map((b) => (b.id === 'old' ? { ...b, proven: true } : b));
    const moved = planOf(newer, { keepLast: 2 });
    expect(moved.kept).toEqual(['f3', 'f2', 'old']);
    expect(moved.deleted).toEqual(['f1', 'i1', 'i2']);
    expect(moved.reasons('old')?.map((r) => r.kind)).toEqual(['proven_restorable']);

    const damaged = newer.map((b) =>
      b.id === 'old' ? { ...b, damage: { status: 'CORRUPT' as const, since: END } } : b,
    );
    const passed = planOf(damaged, { keepLast: 2 });
    expect(passed.reasons('old')?.map((r) => r.kind)).toEqual(['damaged']);
    expect(passed.reasons('i2')?.map((r) => r.kind)).toEqual(['proven_restorable']);
  });

  it('a proven member keeps its whole set', () => {
    const inSet = [
      backup('a', 3, { setId: 's', proven: true }),
      backup('b', 3, { setId: 's' }),
      backup('c', 0),
    ];
    const { reasons, deleted } = planOf(inSet, { keepLast: 1 });
    expect(deleted).toEqual([]);
    expect(reasons('b')?.map((r) => r.kind)).toEqual(['set']);
  });

  it('the fingerprint covers which backup is the newest proven (and is unchanged without any)', () => {
    const scope = { treeName: 'orders', keyPrefix: '' };
    const of = (l: RetentionCandidate[]) =>
      catalogFingerprint(scope, NO_RULES, catalogOfCandidates(l));
    const none = of(list.map((b) => ({ ...b, proven: false })));
    const unproven = of(list.map(({ proven: _p, ...b }) => b));
    const i2 = of(list);
    const olderToo = of(list.map((b) => (b.id === 'i1' ? { ...b, proven: true } : b)));
    const newer = of(list.map((b) => (b.id === 'f3' ? { ...b, proven: true } : b)));
    expect(none).toBe(unproven);
    expect(new Set([none, i2, newer]).size).toBe(3);
    // A proof of an older backup changes no plan, nor the fingerprint.
    expect(olderToo).toBe(i2);
  });
});
