import {
  catalogOfCandidates,
  type CatalogDamage,
  type DamageStatus,
  type RetentionCandidate,
  type RetentionCatalog,
} from './retention-catalog.js';
import { hasAnyRule, type RetentionRules } from './retention-rules.js';
import { ruleReasons, type KeepReasonKind, type PlanReason } from './rule-reasons.js';

export type { RetentionCandidate } from './retention-catalog.js';
export type { KeepReasonKind } from './rule-reasons.js';
export { describeDuration } from './rule-reasons.js';

/** Why a backup stays: the rule and a readable text ("daily 2026-11-24", "base of nightly"). */
export interface KeepReason {
  kind: KeepReasonKind;
  text: string;
  /** A damaged reason's: when a check first found the damage. */
  since?: number;
}

export interface KeptBackup {
  id: string;
  reasons: KeepReason[];
}

/** What the rules keep and delete in one scope. */
export interface RetentionPlan {
  /** Newest first. */
  kept: KeptBackup[];
  /** In a safe deletion order: every incremental before its base. */
  deleted: string[];
  bytesFreed: number;
  /** Sets with a kept member in this scope (they keep their members in other scopes). */
  keptSetIds: Set<string>;
}

/** The same plan over a catalog, by catalog position. */
export interface CatalogPlan {
  /** Newest first. */
  kept: number[];
  /** Of every kept backup, by position (undefined for a deleted one). */
  reasons: (PlanReason[] | undefined)[];
  /** In a safe deletion order: every incremental before its base. */
  deleted: number[];
  bytesFreed: number;
  keptSetIds: Set<string>;
}

export interface PlanOptions {
  /** "Now": keep-within counts back from the newest backup not after it (as restic). */
  now: number;
  /** Sets that have a member kept in another scope: their members here are kept too. */
  keptSetsElsewhere?: ReadonlySet<string> | undefined;
}

const PROVEN_TEXT = 'newest proven restorable';
const PROVEN_LINK_TEXT = 'in the chain of the newest proven restorable backup';
/** Ends a proof reason when nothing else keeps the backup: the console shows the text. */
const RULES_WOULD_DELETE = ': your rules alone would delete it';

const NO_RULES_REASON: PlanReason = { kind: 'no_rules', text: 'no retention rules' };

const DAMAGE_WORDS: Record<DamageStatus, string> = {
  CORRUPT: 'corrupt',
  MISSING: 'files missing',
  DEGRADED: 'degraded (its chain or manifest is damaged)',
};

/**
 * The reason a damaged backup stays: rules never count it, and retention never deletes it either
 * (the admin decides, after looking at it); the console adds since when.
 */
export function damagedReason(damage: CatalogDamage): PlanReason {
  return {
    kind: 'damaged',
    text: `${DAMAGE_WORDS[damage.status]}: kept until deleted by hand, never counted by a rule`,
    since: damage.since,
  };
}

/**
 * Evaluates retention rules over one scope's backups. On top of the rules: a protected backup is
 * kept; a damaged backup (its last check found it corrupt, missing or degraded) is never counted
 * by a rule and never deleted: it is kept by a reason naming the damage; the newest backup a
 * restore drill proved restorable is kept with its chain, by a reason that says when the rules
 * alone would have deleted it; whole chains are kept (every link of a kept incremental down to
 * its full, each named as the base of the link above it), so no kept incremental ever loses a
 * link; a set with a kept member keeps all its members (here and, through `keptSetsElsewhere`,
 * across scopes). What is left is deleted, incrementals before their bases. Pure: no clock, no
 * I/O.
 */
export function planRetention(
  candidates: readonly RetentionCandidate[],
  rules: RetentionRules,
  options: PlanOptions,
): RetentionPlan {
  const catalog = catalogOfCandidates(candidates);
  const plan = planCatalog(catalog, rules, options);
  const nameOf = (position: number) => candidates[catalog.source[position]!]!.name;
  return {
    kept: plan.kept.map((k) => ({ id: catalog.ids[k]!, reasons: keepReasons(plan, k, nameOf) })),
    deleted: plan.deleted.map((k) => catalog.ids[k]!),
    bytesFreed: plan.bytesFreed,
    keptSetIds: plan.keptSetIds,
  };
}

/** A protected backup's keep reason: "protected by Release bot: legal hold". */
export function protectedReason(by: string, reason: string): string {
  return `protected by ${by}${reason ? `: ${reason}` : ''}`;
}

/** The keep reasons of the backup at `position`, with the names base and set reasons end with. */
export function keepReasons(
  plan: CatalogPlan,
  position: number,
  nameOf: (position: number) => string,
): KeepReason[] {
  return (plan.reasons[position] ?? []).map((r) => ({
    kind: r.kind,
    text: r.named === undefined ? r.text : r.text + nameOf(r.named),
    ...(r.since !== undefined && { since: r.since }),
  }));
}

/** planRetention over a catalog (what a preview of a large scope runs). */
export function planCatalog(
  catalog: RetentionCatalog,
  rules: RetentionRules,
  options: PlanOptions,
): CatalogPlan {
  const { base, baseIds, setIds } = catalog;
  const n = catalog.ids.length;
  const reasons = new Array<PlanReason[] | undefined>(n);
  // Positions in the order they were first kept: chains are closed in this order.
  const keptOrder: number[] = [];
  const add = (position: number, reason: PlanReason): boolean => {
    const list = reasons[position];
    if (list) {
      list.push(reason);
      return false;
    }
    reasons[position] = [reason];
    keptOrder.push(position);
    return true;
  };
  if (hasAnyRule(rules)) ruleReasons(catalog, rules, options.now, add);
  else for (let k = 0; k < n; k++) if (!catalog.damaged.has(k)) add(k, NO_RULES_REASON);
  for (const position of [...catalog.damaged.keys()].sort((a, b) => a - b)) {
    add(position, damagedReason(catalog.damaged.get(position)!));
  }
  for (const position of [...catalog.protections.keys()].sort((a, b) => a - b)) {
    const p = catalog.protections.get(position)!;
    add(position, { kind: 'protected', text: protectedReason(p.by, p.reason) });
  }
  const membersOf = new Map<string, number[]>();
  for (let k = 0; k < n; k++) {
    const setId = setIds[k];
    if (!setId) continue;
    const members = membersOf.get(setId);
    if (members) members.push(k);
    else membersOf.set(setId, [k]);
  }
  // Each incremental → base edge is followed once; a base gets one reason per kept dependant.
  const edgeDone = new Uint8Array(n);
  const closeChain = (from: number) => {
    let child = from;
    while (baseIds[child] !== null && edgeDone[child] === 0) {
      edgeDone[child] = 1;
      const b = base[child]!;
      if (b < 0) break;
      add(b, { kind: 'base', text: 'base of ', named: child });
      child = b;
    }
  };
  const setsDone = new Set<string>();
  const closeChainsAndSets = () => {
    for (let grew = true; grew;) {
      grew = false;
      const known = keptOrder.length;
      for (let i = 0; i < known; i++) closeChain(keptOrder[i]!);
      for (const [setId, members] of membersOf) {
        if (setsDone.has(setId)) continue;
        const kept =
          members.some((m) => reasons[m] !== undefined) || options.keptSetsElsewhere?.has(setId);
        if (!kept) continue;
        setsDone.add(setId);
        for (const m of members) {
          if (add(m, { kind: 'set', text: 'member of set ', named: m })) grew = true;
        }
      }
    }
  };
  closeChainsAndSets();
  // Proof last: by now everything else that keeps a backup has, so a proven backup (or a link of
  // its chain) kept by nothing else is one the rules alone would delete, and its reason says so.
  if (catalog.proven >= 0) {
    const seen = new Set<number>();
    for (let k = catalog.proven; k >= 0 && !seen.has(k); k = base[k]!) {
      seen.add(k);
      const text = k === catalog.proven ? PROVEN_TEXT : PROVEN_LINK_TEXT;
      const alone = reasons[k] === undefined;
      add(k, { kind: 'proven_restorable', text: alone ? `${text}${RULES_WOULD_DELETE}` : text });
    }
    closeChainsAndSets();
  }
  const kept: number[] = [];
  const doomed: number[] = [];
  const keptSetIds = new Set<string>();
  let bytesFreed = 0;
  for (let k = 0; k < n; k++) {
    if (reasons[k] !== undefined) {
      kept.push(k);
      const setId = setIds[k];
      if (setId) keptSetIds.add(setId);
    } else {
      doomed.push(k);
      bytesFreed += catalog.byteSizes[k]!;
    }
  }
  return { kept, reasons, deleted: deletionOrder(doomed, base), bytesFreed, keptSetIds };
}

/**
 * Deepest links first (an incremental before its base), newest first within one depth. A depth
 * is the number of links down to the chain's full (through kept backups too); `doomed` comes
 * newest first, and a counting sort by depth keeps that order within each depth.
 */
function deletionOrder(doomed: readonly number[], base: Int32Array): number[] {
  const depth = new Int32Array(base.length).fill(-1);
  // Which walk last passed a position: a base loop (never written, but read from a database)
  // ends the walk instead of looping.
  const walk = new Int32Array(base.length).fill(-1);
  const path: number[] = [];
  let deepest = 0;
  for (const start of doomed) {
    path.length = 0;
    let node = start;
    while (node >= 0 && depth[node]! < 0 && walk[node] !== start) {
      path.push(node);
      walk[node] = start;
      node = base[node]!;
    }
    let d = node >= 0 && depth[node]! >= 0 ? depth[node]! + 1 : 0;
    for (let i = path.length - 1; i >= 0; i--) depth[path[i]!] = d++;
    deepest = Math.max(deepest, depth[start]!);
  }
  // Counting sort, deepest first.
  const startOf = new Int32Array(deepest + 2);
  for (const k of doomed) {
    const slot = deepest - depth[k]! + 1;
    startOf[slot] = startOf[slot]! + 1;
  }
  for (let i = 1; i < startOf.length; i++) startOf[i] = startOf[i]! + startOf[i - 1]!;
  const ordered = new Array<number>(doomed.length);
  for (const k of doomed) {
    const slot = deepest - depth[k]!;
    ordered[startOf[slot]!] = k;
    startOf[slot] = startOf[slot]! + 1;
  }
  return ordered;
}
