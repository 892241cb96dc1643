import { describe, expect, it } from 'vitest';
import { planRetention, type RetentionCandidate } from './retention-plan.js';
import { NO_RULES, type RetentionRules } from './retention-rules.js';

/** mulberry32: a small seeded generator, so a failing run replays with its seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Sydney'];
const HOUR = 3_600_000;

/** A catalog grown by captures: fulls, incrementals on a random earlier backup, set members. */
class RandomCatalog {
  readonly backups = new Map<string, RetentionCandidate>();
  private next = 0;
  private clock = Date.UTC(2025, 0, 1);

  constructor(private readonly random: () => number) {}

  grow(count: number): void {
    for (let i = 0; i < count; i++) {
      // Minutes to days apart, with some equal timestamps.
      const r = this.random();
      if (r > 0.1) this.clock += Math.floor(this.random() * (r > 0.8 ? 72 : 6) * HOUR);
      const existing = [...this.backups.values()];
      const incremental = existing.length > 0 && this.random() < 0.6;
      const base = incremental ? existing[Math.floor(this.random() * existing.length)] : undefined;
      const id = `b${String(this.next++).padStart(5, '0')}`;
      const setId = this.random() < 0.08 ? `set_${Math.floor(this.random() * 12)}` : null;
      this.backups.set(id, {
        id,
        name: `backup ${id}`,
        createdAt: this.clock,
        baseBackupId: base?.id ?? null,
        setId,
        byteSize: Math.floor(this.random() * 1000),
        ...(this.random() < 0.03 && { protection: { by: 'alice', reason: 'hold' } }),
      });
    }
  }

  randomRules(): RetentionRules {
    const count = (max: number) => (this.random() < 0.5 ? 0 : Math.floor(this.random() * max));
    return {
      ...NO_RULES,
      keepLast: count(5),
      keepHourly: count(6),
      keepDaily: count(5),
      keepWeekly: count(4),
      keepMonthly: count(3),
      keepYearly: count(2),
      keepWithinMs: this.random() < 0.3 ? Math.floor(this.random() * 48) * HOUR : 0,
      timeZone: ZONES[Math.floor(this.random() * ZONES.length)]!,
    };
  }

  keptSetsElsewhere(): Set<string> {
    const sets = new Set<string>();
    for (let i = 0; i < 12; i++) if (this.random() < 0.2) sets.add(`set_${i}`);
    return sets;
  }

  now(): number {
    return this.clock;
  }
}

describe('retention chain safety (randomized, seeded)', () => {
  const seeds = [1, 20_261_126, 424_242];
  it.each(seeds)(
    'seed %i: 500 backups, 50 rounds of apply; no kept incremental ever misses a link',
    (seed) => {
      const random = seeded(seed);
      const catalog = new RandomCatalog(random);
      catalog.grow(500);
      let deletedTotal = 0;
      for (let round = 0; round < 50; round++) {
        const rules = catalog.randomRules();
        const keptElsewhere = catalog.keptSetsElsewhere();
        const plan = planRetention([...catalog.backups.values()], rules, {
          now: catalog.now(),
          keptSetsElsewhere: keptElsewhere,
        });
        const where = `seed ${seed}, round ${round}`;
        expect(plan.kept.length + plan.deleted.length, where).toBe(catalog.backups.size);
        // Apply in the plan's order, as the catalog's delete (no cascade) would: a backup goes
        // only when nothing left names it as its base. Plain throws: expect() per backup is slow.
        const dependants = new Map<string, Set<string>>();
        for (const c of catalog.backups.values()) {
          if (c.baseBackupId === null) continue;
          const set = dependants.get(c.baseBackupId) ?? new Set<string>();
          set.add(c.id);
          dependants.set(c.baseBackupId, set);
        }
        const deletedSets = new Set<string>();
        for (const id of plan.deleted) {
          const doomed = catalog.backups.get(id)!;
          if (doomed.setId) deletedSets.add(doomed.setId);
          if (doomed.protection) throw new Error(`${where}: ${id} is protected`);
          if (doomed.setId && keptElsewhere.has(doomed.setId)) {
            throw new Error(`${where}: ${id} is in set ${doomed.setId}, kept elsewhere`);
          }
          const left = dependants.get(id);
          if (left && left.size > 0) throw new Error(`${where}: ${[...left][0]} still needs ${id}`);
          catalog.backups.delete(id);
          if (doomed.baseBackupId !== null) dependants.get(doomed.baseBackupId)?.delete(id);
        }
        for (const kept of catalog.backups.values()) {
          if (kept.baseBackupId !== null && !catalog.backups.has(kept.baseBackupId)) {
            throw new Error(`${where}: ${kept.id} misses its base ${kept.baseBackupId}`);
          }
        }
        // A set keeps all its members here or none.
        const keptSets = new Set([...catalog.backups.values()].map((c) => c.setId));
        for (const setId of deletedSets)
          expect(keptSets.has(setId), `${where}: ${setId}`).toBe(false);
        deletedTotal += plan.deleted.length;
        catalog.grow(10);
      }
      // The rounds did delete (the property is not held by deleting nothing).
      expect(deletedTotal).toBeGreaterThan(300);
    },
  );
});
