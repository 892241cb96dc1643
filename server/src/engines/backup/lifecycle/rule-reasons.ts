import { ZoneCalendar, type BucketPeriod } from './calendar-buckets.js';
import type { RetentionCatalog } from './retention-catalog.js';
import type { RetentionRules } from './retention-rules.js';

export type KeepReasonKind =
  | 'last'
  | BucketPeriod
  | 'oldest'
  | 'within'
  | 'protected'
  | 'base'
  | 'set'
  | 'no_rules'
  | 'damaged'
  | 'proven_restorable';

/**
 * A keep reason as the plan records it. Base and set reasons end with a backup's name ("base of
 * nightly"): the plan gives its position in `named`, and the name is added when the reason is
 * shown (keepReasons), so a preview reads names only for the page it shows.
 */
export interface PlanReason {
  kind: KeepReasonKind;
  text: string;
  named?: number;
  /** A damaged reason's: when a check first found the damage (the console shows the date). */
  since?: number;
}

const PERIODS: ReadonlyArray<[BucketPeriod, keyof RetentionRules]> = [
  ['hourly', 'keepHourly'],
  ['daily', 'keepDaily'],
  ['weekly', 'keepWeekly'],
  ['monthly', 'keepMonthly'],
  ['yearly', 'keepYearly'],
];

/**
 * The rules' own choice, as restic's ApplyPolicy: walking newest first, keep-last keeps the first
 * N; each period rule keeps a backup whose bucket differs from the last one it kept, while its
 * count lasts, and the oldest backup too when the count was not used up (restic ≥ 0.17: the
 * longest history the counts allow); keep-within keeps what is newer than newest − duration.
 * `add` receives each (position, reason) in walking order. Damaged backups are not walked at
 * all: the rules choose among healthy and not-yet-verified backups only, so a corrupt one never
 * takes the place of a good one (planCatalog keeps it by a reason of its own).
 */
export function ruleReasons(
  catalog: RetentionCatalog,
  rules: RetentionRules,
  now: number,
  add: (position: number, reason: PlanReason) => void,
): void {
  const { createdAt, damaged } = catalog;
  const positions = countedPositions(createdAt.length, damaged);
  const n = positions.length;
  const calendar = ZoneCalendar.of(rules.timeZone);
  let newest = now;
  for (let i = 0; i < n; i++) {
    if (createdAt[positions[i]!]! <= now) {
      newest = createdAt[positions[i]!]!;
      break;
    }
  }
  const withinFrom = newest - rules.keepWithinMs;
  const within: PlanReason = {
    kind: 'within',
    text: `within ${describeDuration(rules.keepWithinMs)}`,
  };
  const counters = PERIODS.map(([period, key]) => ({
    period,
    left: rules[key] as number,
    last: Number.NaN,
  }));
  // Past keep-last and keep-within, a backup only matters to counters that still count.
  let counting = counters.filter((c) => c.left > 0);
  for (let i = 0; i < n; i++) {
    const position = positions[i]!;
    const at = createdAt[position]!;
    if (i < rules.keepLast) {
      add(position, { kind: 'last', text: `last ${i + 1} of ${rules.keepLast}` });
    }
    if (rules.keepWithinMs > 0 && at > withinFrom) add(position, within);
    if (counting.length === 0) {
      if (i >= rules.keepLast && (rules.keepWithinMs === 0 || at <= withinFrom)) break;
      continue;
    }
    const oldest = i === n - 1;
    for (const counter of counting) {
      const bucket = calendar.bucket(at, counter.period);
      if (bucket !== counter.last) {
        counter.last = bucket;
        counter.left -= 1;
        const label = calendar.label(at, counter.period);
        add(position, { kind: counter.period, text: `${counter.period} ${label}` });
      } else if (oldest) {
        counter.left -= 1;
        add(position, { kind: 'oldest', text: `oldest (${counter.period} count not used up)` });
      }
    }
    if (counting.some((c) => c.left <= 0)) counting = counting.filter((c) => c.left > 0);
  }
}

/** The positions the rules walk, newest first: all but the damaged ones. */
function countedPositions(n: number, damaged: ReadonlyMap<number, unknown>): Int32Array {
  const positions = new Int32Array(n - damaged.size);
  let i = 0;
  for (let k = 0; k < n; k++) if (!damaged.has(k)) positions[i++] = k;
  return positions;
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
