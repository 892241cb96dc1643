import { createHash } from 'node:crypto';
import {
  listScopeBackups,
  type PlanCandidate,
  type StoredDrillPlan,
} from '../../../storage/backup/drills/drill-plan-store.js';
import { backupNamesByIds } from '../../../storage/backup/backup-store.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';

/** Which backup a plan's run drills, and why in words; or why there is none. */
export type PlanPick = { backup: PlanCandidate; reason: string } | { backup: null; reason: string };

/** "7 d", "36 h", "90 min": a window as an operator reads it. */
export function formatWindow(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} min`;
  const hours = ms / 3_600_000;
  return hours >= 48 && hours % 24 === 0 ? `${hours / 24} d` : `${Math.round(hours)} h`;
}

/** The choice in words, as the schedules overview names it. */
export function describeChoice(plan: Pick<StoredDrillPlan, 'choice' | 'windowMs'>): string {
  switch (plan.choice) {
    case 'NEWEST':
      return 'the newest backup';
    case 'RANDOM_WITHIN_WINDOW':
      return `a random backup of the last ${formatWindow(plan.windowMs ?? 0)}`;
    case 'EACH_NEW_FULL':
      return 'each new full backup';
  }
}

/**
 * The draw's seed: a hash of the plan and the run's time, so a run's pick can be recomputed
 * (and is recorded in words), while successive runs draw differently.
 */
export function drawSeed(plan: StoredDrillPlan, at: number): number {
  const digest = createHash('sha256')
    .update(JSON.stringify([plan.tenant, plan.treeName, plan.keyPrefix, plan.name, at]))
    .digest();
  return digest.readUInt32BE(0) & 0x7fffffff;
}

function scopeName(plan: StoredDrillPlan): string {
  return plan.keyPrefix === '' ? plan.treeName : `${plan.treeName} (prefix ${plan.keyPrefix})`;
}

/** Picks the backup a run of `plan` at `at` drills, per the plan's choice. */
export async function pickBackup(
  handle: TreeDb,
  plan: StoredDrillPlan,
  at: number,
): Promise<PlanPick> {
  const scope = { tenant: plan.tenant, treeName: plan.treeName, keyPrefix: plan.keyPrefix };
  switch (plan.choice) {
    case 'NEWEST': {
      const [newest] = await listScopeBackups(handle, scope, { newest: 1 });
      return newest
        ? { backup: newest, reason: `the newest backup of ${scopeName(plan)}: ${newest.name}` }
        : { backup: null, reason: `${scopeName(plan)} has no backup yet` };
    }
    case 'RANDOM_WITHIN_WINDOW': {
      const windowMs = plan.windowMs ?? 0;
      const candidates = await listScopeBackups(handle, scope, { createdAtLeast: at - windowMs });
      const within = `the last ${formatWindow(windowMs)}`;
      if (candidates.length === 0) {
        return { backup: null, reason: `no backup of ${scopeName(plan)} within ${within}` };
      }
      const seed = drawSeed(plan, at);
      const backup = candidates[seed % candidates.length]!;
      return {
        backup,
        reason: `drawn at random (seed ${seed}) among ${candidates.length} backups of ${within}: ${backup.name}`,
      };
    }
    case 'EACH_NEW_FULL': {
      const last = plan.lastBackup;
      const [newest] = await listScopeBackups(handle, scope, {
        kind: 'FULL',
        newest: 1,
        ...(last && { createdAfter: last.createdAt }),
      });
      if (newest) return { backup: newest, reason: `a new full backup: ${newest.name}` };
      if (!last) return { backup: null, reason: `${scopeName(plan)} has no full backup yet` };
      // By name while the catalog (or retention's deletion record) still knows it.
      const lastName = (await backupNamesByIds(handle, plan.tenant, [last.id])).get(last.id);
      return {
        backup: null,
        reason: `no full backup of ${scopeName(plan)} newer than ${lastName ?? last.id}, drilled last`,
      };
    }
  }
}
