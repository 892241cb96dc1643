import { createHash } from 'node:crypto';
import {
  getRetentionRules,
  scopesOfSets,
  type StoredRetentionRules,
} from '../../../storage/backup/lifecycle/backup-lifecycle-store.js';
import type { ScopeKey } from '../../../storage/backup/backup-scope-store.js';
import {
  backupNames,
  readScopeCatalog,
} from '../../../storage/backup/lifecycle/retention-catalog-store.js';
import type { TreeDb } from '../../../storage/data/tree-db.js';
import { catalogFingerprint } from './catalog-fingerprint.js';
import {
  buildCatalog,
  type CatalogDamage,
  type CatalogProtection,
  type DamageStatus,
  type RetentionCatalog,
} from './retention-catalog.js';
import { planCatalog, type CatalogPlan } from './retention-plan.js';
import { NO_RULES, type RetentionRules } from './retention-rules.js';

/** A scope's rules, catalog and plan, with the fingerprint an apply must match. */
export interface ScopeEvaluation {
  scope: ScopeKey;
  rules: RetentionRules;
  stored: StoredRetentionRules | undefined;
  catalog: RetentionCatalog;
  plan: CatalogPlan;
  /** The plan's deletions as backup ids, in deletion order. */
  deletedIds: string[];
  /**
   * sha256 of everything the plan depends on: the rules, every backup of the scope (id, time,
   * base, set, protection, damage found by checks, the newest drill-proven one) and the same of each other scope sharing a set with it. Equal
   * fingerprints mean an equal plan (evaluation is deterministic).
   */
  fingerprint: string;
}

/** What an apply records of a backup it deletes. */
export interface DeletionFacts {
  name: string;
  byteSize: number;
  createdAt: number;
}

function rulesOf(stored: StoredRetentionRules | undefined): RetentionRules {
  if (!stored) return NO_RULES;
  const { applyAfterSchedule: _a, updatedAt: _u, updatedBy: _b, ...rules } = stored;
  return rules;
}

async function catalogOf(storage: TreeDb, scope: ScopeKey): Promise<RetentionCatalog> {
  const columns = await readScopeCatalog(storage, scope);
  const protections = new Map<string, CatalogProtection>();
  for (const p of columns.protections) {
    protections.set(p.backupId, { by: p.protectedBy, reason: p.reason });
  }
  const damaged = new Map<string, CatalogDamage>();
  for (const d of columns.damaged) {
    damaged.set(d.backupId, { status: d.status as DamageStatus, since: d.since });
  }
  return buildCatalog({ ...columns, protections, damaged, proven: new Set(columns.proven) });
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
  const catalog = await catalogOf(storage, scope);
  const setIds = [...new Set(catalog.setIds.filter((s): s is string => s !== null))];
  const parts = [catalogFingerprint(scope, rules, catalog)];
  const keptElsewhere = new Set<string>();
  for (const other of await scopesOfSets(storage, scope.tenant, setIds, scope)) {
    const otherRules = rulesOf(await getRetentionRules(storage, other));
    const otherCatalog = await catalogOf(storage, other);
    const otherPlan = planCatalog(otherCatalog, otherRules, { now });
    for (const id of otherPlan.keptSetIds) keptElsewhere.add(id);
    parts.push(catalogFingerprint(other, otherRules, otherCatalog));
  }
  const plan = planCatalog(catalog, rules, { now, keptSetsElsewhere: keptElsewhere });
  const fingerprint = createHash('sha256').update(parts.join('\n')).digest('hex');
  const deletedIds = plan.deleted.map((k) => catalog.ids[k]!);
  return { scope, rules, stored, catalog, plan, deletedIds, fingerprint };
}

/** Name, size and creation time of each backup the evaluation deletes (names read now). */
export async function deletionFacts(
  storage: TreeDb,
  evaluation: ScopeEvaluation,
): Promise<Map<string, DeletionFacts>> {
  const { catalog, deletedIds } = evaluation;
  const names = await backupNames(storage, evaluation.scope.tenant, deletedIds);
  const facts = new Map<string, DeletionFacts>();
  for (const k of evaluation.plan.deleted) {
    const id = catalog.ids[k]!;
    facts.set(id, {
      name: names.get(id) ?? '',
      byteSize: catalog.byteSizes[k]!,
      createdAt: catalog.createdAt[k]!,
    });
  }
  return facts;
}
