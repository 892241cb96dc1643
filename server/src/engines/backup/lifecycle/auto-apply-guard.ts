import type { RetentionCatalog } from './retention-catalog.js';
import type { CatalogPlan } from './retention-plan.js';

/** The share of a scope's usable backups an automatic apply may delete by default: half. */
export const DEFAULT_AUTO_APPLY_MAX_SHARE = 0.5;

/** Why an automatic apply deletes nothing instead of its plan. */
export type AutoApplyStop =
  | {
      kind: 'newest_healthy';
      /** Catalog position of the backup it would have deleted. */
      position: number;
      /** True when a check found that backup healthy; false: none is verified, it is the newest. */
      verified: boolean;
    }
  | { kind: 'share'; deleting: number; usable: number; maxShare: number };

/**
 * The newest healthy backup of a scope, by catalog position: the newest one whose last check
 * found it healthy; when none was ever verified, the newest one no check found damaged (a scope
 * whose backups were never verified still has a newest backup worth keeping). -1: none (every
 * backup is damaged, or the scope is empty).
 */
export function newestHealthyPosition(
  catalog: RetentionCatalog,
  newestVerifiedPosition: number,
): { position: number; verified: boolean } {
  if (newestVerifiedPosition >= 0) return { position: newestVerifiedPosition, verified: true };
  for (let k = 0; k < catalog.ids.length; k++) {
    if (!catalog.damaged.has(k)) return { position: k, verified: false };
  }
  return { position: -1, verified: false };
}

/**
 * The guard of an apply that runs by itself after a scheduled capture (nobody looked at its
 * preview): it stops, deleting nothing, when its plan would delete the scope's newest healthy
 * backup, or more than `maxShare` of the scope's usable backups (those no check found damaged;
 * damaged ones are never deleted by a rule, so they are no part of what it may delete). An apply
 * from a preview an admin looked at is not guarded: the preview showed what it deletes. Pure.
 */
export function autoApplyStop(
  catalog: RetentionCatalog,
  plan: CatalogPlan,
  newestHealthy: { position: number; verified: boolean },
  maxShare: number,
): AutoApplyStop | undefined {
  const deleting = plan.deleted.length;
  if (deleting === 0) return undefined;
  const { position, verified } = newestHealthy;
  if (position >= 0 && plan.reasons[position] === undefined) {
    return { kind: 'newest_healthy', position, verified };
  }
  const usable = catalog.ids.length - catalog.damaged.size;
  if (deleting > maxShare * usable) return { kind: 'share', deleting, usable, maxShare };
  return undefined;
}

/** The stop in words, with the backup's name and the scope's ("tree inventory"). */
export function autoApplyStopWords(
  stop: AutoApplyStop,
  scope: string,
  nameOf: (position: number) => string,
): string {
  if (stop.kind === 'newest_healthy') {
    const which = stop.verified
      ? `the newest backup of ${scope} a health check found healthy`
      : `the newest backup of ${scope} (none is verified yet, and no check found it damaged)`;
    return (
      `Stopped, nothing deleted: the rules would have deleted “${nameOf(stop.position)}”, ${which}. ` +
      'Verify the newer backups, or preview and apply by hand.'
    );
  }
  const percent = (n: number) => `${Math.round(n * 100)} %`;
  return (
    `Stopped, nothing deleted: the rules would have deleted ${stop.deleting} of the ` +
    `${stop.usable} usable backups of ${scope} (${percent(stop.deleting / stop.usable)}), more than ` +
    `the ${percent(stop.maxShare)} an automatic apply may delete. Preview and apply by hand to delete them.`
  );
}
