import { ZoneCalendar, type BucketPeriod } from './calendar-buckets.js';
import { hasAnyRule, type RetentionRules } from './retention-rules.js';

/** One backup of the scope as retention sees it. */
export interface RetentionCandidate {
  id: string;
  name: string;
  createdAt: number;
  baseBackupId: string | null;
  setId: string | null;
  byteSize: number;
  /** Set while the backup is protected (pinned): who protected it and why. */
  protection?: { by: string; reason: string } | undefined;
}

export type KeepReasonKind =
  'last' | BucketPeriod | 'oldest' | 'within' | 'protected' | 'base' | 'set' | 'no_rules';

/** Why a backup stays: the rule and a readable text ("daily 2026-11-24", "base of nightly"). */
export interface KeepReason {
  kind: KeepReasonKind;
  text: string;
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

export interface PlanOptions {
  /** "Now": keep-within counts back from the newest backup not after it (as restic). */
  now: number;
  /** Sets that have a member kept in another scope: their members here are kept too. */
  keptSetsElsewhere?: ReadonlySet<string> | undefined;
}

const PERIODS: ReadonlyArray<[BucketPeriod, keyof RetentionRules]> = [
  ['hourly', 'keepHourly'],
  ['daily', 'keepDaily'],
  ['weekly', 'keepWeekly'],
  ['monthly', 'keepMonthly'],
  ['yearly', 'keepYearly'],
];

/** Newest first; equal timestamps by id, descending, so the order never depends on the input. */
function newestFirst(a: RetentionCandidate, b: RetentionCandidate): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The rules' own choice, as restic's ApplyPolicy: walking newest first, keep-last keeps the first
 * N; each period rule keeps a backup whose bucket differs from the last one it kept, while its
 * count lasts, and the oldest backup too when the count was not used up (restic ≥ 0.17: the
 * longest history the counts allow); keep-within keeps what is newer than newest − duration.
 */
function ruleReasons(
  sorted: readonly RetentionCandidate[],
  rules: RetentionRules,
  now: number,
): Map<string, KeepReason[]> {
  const reasons = new Map<string, KeepReason[]>();
  const add = (id: string, reason: KeepReason) => {
    const list = reasons.get(id);
    if (list) list.push(reason);
    else reasons.set(id, [reason]);
  };
  const calendar = new ZoneCalendar(rules.timeZone);
  const newest = sorted.find((c) => c.createdAt <= now)?.createdAt ?? now;
  const withinFrom = newest - rules.keepWithinMs;
  const counters = PERIODS.map(([period, key]) => ({
    period,
    left: rules[key] as number,
    last: Number.NaN,
  }));
  sorted.forEach((candidate, position) => {
    const oldest = position === sorted.length - 1;
    if (position < rules.keepLast) {
      add(candidate.id, { kind: 'last', text: `last ${position + 1} of ${rules.keepLast}` });
    }
    if (rules.keepWithinMs > 0 && candidate.createdAt > withinFrom) {
      add(candidate.id, { kind: 'within', text: `within ${describeDuration(rules.keepWithinMs)}` });
    }
    for (const counter of counters) {
      if (counter.left <= 0) continue;
      const bucket = calendar.bucket(candidate.createdAt, counter.period);
      if (bucket !== counter.last) {
        counter.last = bucket;
        counter.left -= 1;
        const label = calendar.label(candidate.createdAt, counter.period);
        add(candidate.id, { kind: counter.period, text: `${counter.period} ${label}` });
      } else if (oldest) {
        counter.left -= 1;
        add(candidate.id, { kind: 'oldest', text: `oldest (${counter.period} count not used up)` });
      }
    }
  });
  return reasons;
}

/** "36h", "7d", "1d 2h 30m" for keep-within reasons. */
export function describeDuration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.floor(ms / 60_000);
  const days = Math.floor(rest / 1440);
  rest -= days * 1440;
  const hours = Math.floor(rest / 60);
  const minutes = rest - hours * 60;
  if (days > 0) parts.push(`${days}d`);
  if (hours > 0) parts.push(`${hours}h`);
  if (minutes > 0 || parts.length === 0) parts.push(`${minutes}m`);
  return parts.join(' ');
}

/**
 * Evaluates retention rules over one scope's backups. On top of the rules: a protected backup is
 * kept; whole chains are kept (every link of a kept incremental down to its full, each named as
 * the base of the link above it), so no kept incremental ever loses a link; a set with a kept
 * member keeps all its members (here and, through `keptSetsElsewhere`, across scopes). What is
 * left is deleted, incrementals before their bases. Pure: no clock, no I/O.
 */
export function planRetention(
  candidates: readonly RetentionCandidate[],
  rules: RetentionRules,
  options: PlanOptions,
): RetentionPlan {
  const sorted = [...candidates].sort(newestFirst);
  const byId = new Map(sorted.map((c) => [c.id, c]));
  const reasons: Map<string, KeepReason[]> = hasAnyRule(rules)
    ? ruleReasons(sorted, rules, options.now)
    : new Map(sorted.map((c) => [c.id, [{ kind: 'no_rules', text: 'no retention rules' }]]));
  const add = (id: string, reason: KeepReason): boolean => {
    const list = reasons.get(id);
    if (list) list.push(reason);
    else reasons.set(id, [reason]);
    return !list;
  };
  for (const c of sorted) {
    if (c.protection) {
      const why = c.protection.reason ? `: ${c.protection.reason}` : '';
      add(c.id, { kind: 'protected', text: `protected by ${c.protection.by}${why}` });
    }
  }
  const membersOf = new Map<string, RetentionCandidate[]>();
  for (const c of sorted) {
    if (c.setId === null) continue;
    const members = membersOf.get(c.setId);
    if (members) members.push(c);
    else membersOf.set(c.setId, [c]);
  }
  // Each incremental → base edge is followed once; a base gets one reason per kept dependant.
  const edgesDone = new Set<string>();
  const closeChain = (id: string) => {
    let child = byId.get(id);
    while (child?.baseBackupId && !edgesDone.has(child.id)) {
      edgesDone.add(child.id);
      const base = byId.get(child.baseBackupId);
      if (!base) break;
      add(base.id, { kind: 'base', text: `base of ${child.name}` });
      child = base;
    }
  };
  const setsDone = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const id of [...reasons.keys()]) closeChain(id);
    for (const [setId, members] of membersOf) {
      if (setsDone.has(setId)) continue;
      const kept = members.some((m) => reasons.has(m.id)) || options.keptSetsElsewhere?.has(setId);
      if (!kept) continue;
      setsDone.add(setId);
      for (const m of members) {
        if (add(m.id, { kind: 'set', text: `member of set ${m.name}` })) grew = true;
      }
    }
  }
  const kept: KeptBackup[] = [];
  const deletedCandidates: RetentionCandidate[] = [];
  for (const c of sorted) {
    const why = reasons.get(c.id);
    if (why) kept.push({ id: c.id, reasons: why });
    else deletedCandidates.push(c);
  }
  const keptSetIds = new Set<string>();
  for (const k of kept) {
    const setId = byId.get(k.id)?.setId;
    if (setId) keptSetIds.add(setId);
  }
  return {
    kept,
    deleted: deletionOrder(deletedCandidates, byId),
    bytesFreed: deletedCandidates.reduce((sum, c) => sum + c.byteSize, 0),
    keptSetIds,
  };
}

/** Deepest links first (an incremental before its base), newest first within one depth. */
function deletionOrder(
  doomed: readonly RetentionCandidate[],
  byId: ReadonlyMap<string, RetentionCandidate>,
): string[] {
  const depth = new Map<string, number>();
  const depthOf = (start: RetentionCandidate): number => {
    const path: RetentionCandidate[] = [];
    const onPath = new Set<string>();
    let node: RetentionCandidate | undefined = start;
    let base = 0;
    while (node && !depth.has(node.id) && !onPath.has(node.id)) {
      path.push(node);
      onPath.add(node.id);
      node = node.baseBackupId ? byId.get(node.baseBackupId) : undefined;
    }
    if (node && depth.has(node.id)) base = (depth.get(node.id) ?? 0) + 1;
    for (let i = path.length - 1; i >= 0; i--) depth.set(path[i]!.id, base++);
    return depth.get(start.id) ?? 0;
  };
  const withDepth = doomed.map((c) => ({ c, d: depthOf(c) }));
  withDepth.sort((a, b) => b.d - a.d || newestFirst(a.c, b.c));
  return withDepth.map((x) => x.c.id);
}
