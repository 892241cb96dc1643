import { createHash } from 'node:crypto';
import {
  getRetentionRules,
  listScopeBackups,
  scopesOfSets,
  type ScopeBackupRow,
  type StoredRetentionRules,
} from '../../../storage/backup-lifecycle-store.js';
import type { ScopeKey } from '../../../storage/backup-scope-store.js';
import type { TreeDb } from '../../../storage/tree-db.js';
import { planRetention, type RetentionCandidate, type RetentionPlan } from './retention-plan.js';
import { NO_RULES, type RetentionRules } from './retention-rules.js';

/** A scope's rules, catalog and plan, with the fingerprint an apply must match. */
export interface ScopeEvaluation {
  scope: ScopeKey;
  rules: RetentionRules;
  stored: StoredRetentionRules | undefined;
  rows: ScopeBackupRow[];
  plan: RetentionPlan;
  /**
   * sha256 of everything the plan depends on: the rules, every backup of the scope (id, time,
   * base, set, protection) and the same of each other scope sharing a set with it. Equal
   * fingerprints mean an equal plan (evaluation is deterministic).
   */
  fingerprint: string;
}

function rulesOf(stored: StoredRetentionRules | undefined): RetentionRules {
  if (!stored) return NO_RULES;
  const { applyAfterSchedule: _a, updatedAt: _u, updatedBy: _b, ...rules } = stored;
  return rules;
}

function candidatesOf(rows: readonly ScopeBackupRow[]): RetentionCandidate[] {
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: r.createdAt,
    baseBackupId: r.baseBackupId,
    setId: r.setId,
    byteSize: r.byteSize,
    protection: r.protection && { by: r.protection.protectedBy, reason: r.protection.reason },
  }));
}

function fingerprintPart(scope: ScopeKey, rules: RetentionRules, rows: readonly ScopeBackupRow[]) {
  // Rows come in the store's fixed order (newest first, ties by id); one update of one string
  // is several times faster than one update per row.
  const lines = rows.map(
    (r) =>
      `${r.id}|${r.createdAt}|${r.baseBackupId ?? ''}|${r.setId ?? ''}|${r.protection ? 'p' : ''}`,
  );
  return createHash('sha256')
    .update(JSON.stringify([scope.treeName, scope.keyPrefix, rules]))
    .update(lines.join('\n'))
    .digest('hex');
}

/**
 * Evaluates a scope's retention now. Sets reach across scopes: a member here is kept when a member
 * in another scope is kept there by that scope's own rules (a scope without rules keeps all).
 */
export async function evaluateScope(
  storage: TreeDb,
  scope: ScopeKey,
  now: number,
  draftRules?: RetentionRules,
): Promise<ScopeEvaluation> {
  const stored = await getRetentionRules(storage, scope);
  // A draft (a rules form before it is saved) replaces this scope's rules only; the fingerprint
  // covers the draft, so no apply matches it until the same rules are stored.
  const rules = draftRules ?? rulesOf(stored);
  const rows = await listScopeBackups(storage, scope);
  const setIds = [...new Set(rows.flatMap((r) => (r.setId ? [r.setId] : [])))];
  const parts = [fingerprintPart(scope, rules, rows)];
  const keptElsewhere = new Set<string>();
  for (const other of await scopesOfSets(storage, scope.tenant, setIds, scope)) {
    const otherRules = rulesOf(await getRetentionRules(storage, other));
    const otherRows = await listScopeBackups(storage, other);
    const otherPlan = planRetention(candidatesOf(otherRows), otherRules, { now });
    for (const id of otherPlan.keptSetIds) keptElsewhere.add(id);
    parts.push(fingerprintPart(other, otherRules, otherRows));
  }
  const plan = planRetention(candidatesOf(rows), rules, { now, keptSetsElsewhere: keptElsewhere });
  const fingerprint = createHash('sha256').update(parts.join('\n')).digest('hex');
  return { scope, rules, stored, rows, plan, fingerprint };
}
