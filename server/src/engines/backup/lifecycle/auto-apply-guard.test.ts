import { describe, expect, it } from 'vitest';
import { autoApplyStop, autoApplyStopWords, newestHealthyPosition } from './auto-apply-guard.js';
import { catalogOfCandidates, type RetentionCandidate } from './retention-catalog.js';
import { planCatalog, type CatalogPlan } from './retention-plan.js';
import { NO_RULES } from './retention-rules.js';

const DAY = 86_400_000;
const END = Date.UTC(2026, 10, 27, 12);

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

const damaged = { status: 'CORRUPT' as const, since: END };
// Newest first in the catalog: f4 (0), f3 (1), f2 (2), f1 (3).
const catalog = catalogOfCandidates([
  backup('f1', 3),
  backup('f2', 2),
  backup('f3', 1),
  backup('f4', 0, { damage: damaged }),
]);
const keepLast = (n: number) => planCatalog(catalog, { ...NO_RULES, keepLast: n }, { now: END });
const position = (id: string) => catalog.ids.indexOf(id);
/** A plan deleting exactly these positions (what no restic rule does: the guard's backstop). */
function planDeleting(deleted: number[]): CatalogPlan {
  const plan = keepLast(3);
  const reasons = plan.reasons.map((r, k) => (deleted.includes(k) ? undefined : (r ?? [])));
  return { ...plan, reasons, deleted, kept: plan.kept.filter((k) => !deleted.includes(k)) };
}

describe('the guard of an automatic retention apply', () => {
  it('the newest healthy backup is the newest verified one, else the newest not found damaged', () => {
    expect(newestHealthyPosition(catalog, position('f1'))).toEqual({
      position: position('f1'),
      verified: true,
    });
    // f4 is damaged: the newest not found damaged is f3.
    expect(newestHealthyPosition(catalog, -1)).toEqual({
      position: position('f3'),
      verified: false,
    });
    const allDamaged = catalogOfCandidates([backup('x', 1, { damage: damaged })]);
    expect(newestHealthyPosition(allDamaged, -1)).toEqual({ position: -1, verified: false });
  });

  it('stops when the plan deletes the newest verified-healthy backup, even though newer unverified ones stay', () => {
    // keepLast 1 keeps f3 (f4 is damaged, never counted) and deletes f2 and f1; f1 was verified.
    const stop = autoApplyStop(
      catalog,
      keepLast(1),
      newestHealthyPosition(catalog, position('f1')),
      1,
    );
    expect(stop).toEqual({ kind: 'newest_healthy', position: position('f1'), verified: true });
    expect(autoApplyStopWords(stop!, 'tree t', (k) => catalog.ids[k]!)).toBe(
      'Stopped, nothing deleted: the rules would have deleted “f1”, the newest backup of tree t ' +
        'a health check found healthy. Verify the newer backups, or preview and apply by hand.',
    );
  });

  it('stops when a plan would delete the newest unverified backup not found damaged', () => {
    const stop = autoApplyStop(
      catalog,
      planDeleting([position('f3')]),
      newestHealthyPosition(catalog, -1),
      1,
    );
    expect(stop).toEqual({ kind: 'newest_healthy', position: position('f3'), verified: false });
    expect(autoApplyStopWords(stop!, 'tree t', () => 'full f3')).toContain(
      'the newest backup of tree t (none is verified yet, and no check found it damaged)',
    );
  });

  it('stops above the share of usable backups (damaged ones not counted), not at it', () => {
    const newest = newestHealthyPosition(catalog, -1);
    // 3 usable (f1..f3): keepLast 1 deletes 2 = 67 %.
    expect(autoApplyStop(catalog, keepLast(1), newest, 0.5)).toEqual({
      kind: 'share',
      deleting: 2,
      usable: 3,
      maxShare: 0.5,
    });
    expect(autoApplyStop(catalog, keepLast(1), newest, 2 / 3)).toBeUndefined();
    // keepLast 2 deletes 1 of 3.
    expect(autoApplyStop(catalog, keepLast(2), newest, 0.5)).toBeUndefined();
    // Nothing to delete: never stopped, whatever the share.
    expect(autoApplyStop(catalog, keepLast(3), newest, 0)).toBeUndefined();
    expect(
      autoApplyStopWords(
        { kind: 'share', deleting: 2, usable: 3, maxShare: 0.5 },
        'tree t',
        () => '',
      ),
    ).toBe(
      'Stopped, nothing deleted: the rules would have deleted 2 of the 3 usable backups of tree t ' +
        '(67 %), more than the 50 % an automatic apply may delete. Preview and apply by hand to ' +
        'delete them.',
    );
  });
});
