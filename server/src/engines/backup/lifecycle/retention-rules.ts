import { invalidArgument } from '../../errors.js';
import { validateTimeZone } from './calendar-buckets.js';

/**
 * Retention rules of one scope, as restic's `forget` policy: every count is "keep the newest
 * backup of each of the last N periods that hold a backup"; 0 turns a rule off.
 */
export interface RetentionRules {
  keepLast: number;
  keepHourly: number;
  keepDaily: number;
  keepWeekly: number;
  keepMonthly: number;
  keepYearly: number;
  /** Keep every backup created within this long before the scope's newest one; 0 = off. */
  keepWithinMs: number;
  /** IANA zone the calendar periods are counted in. */
  timeZone: string;
}

/** Every rule off: what a scope whose rules were never set is evaluated by. */
export const NO_RULES: RetentionRules = {
  keepLast: 0,
  keepHourly: 0,
  keepDaily: 0,
  keepWeekly: 0,
  keepMonthly: 0,
  keepYearly: 0,
  keepWithinMs: 0,
  timeZone: 'UTC',
};

/** Counts above this are refused: nobody keeps a million periods, and the counter stays exact. */
export const MAX_KEEP_COUNT = 1_000_000;
/** keep-within at most 1000 years. */
const MAX_WITHIN_MS = 1000 * 366 * 86_400_000;

const COUNT_FIELDS = [
  ['keepLast', 'keep_last'],
  ['keepHourly', 'keep_hourly'],
  ['keepDaily', 'keep_daily'],
  ['keepWeekly', 'keep_weekly'],
  ['keepMonthly', 'keep_monthly'],
  ['keepYearly', 'keep_yearly'],
] as const;

/** Checks rules from a caller (InvalidArgument naming the field) and resolves the zone name. */
export function validateRules(rules: RetentionRules): RetentionRules {
  for (const [key, field] of COUNT_FIELDS) {
    const value = rules[key];
    if (!Number.isInteger(value) || value < 0 || value > MAX_KEEP_COUNT) {
      throw invalidArgument(field, `must be a whole number from 0 to ${MAX_KEEP_COUNT}`);
    }
  }
  const within = rules.keepWithinMs;
  if (!Number.isFinite(within) || within < 0 || within > MAX_WITHIN_MS) {
    throw invalidArgument('keep_within', 'must be a duration from 0 to 1000 years');
  }
  return { ...rules, keepWithinMs: Math.floor(within), timeZone: validateTimeZone(rules.timeZone) };
}

/** Whether any rule is on: rules that are all off delete nothing (restic: "policy is empty"). */
export function hasAnyRule(rules: RetentionRules): boolean {
  return COUNT_FIELDS.some(([key]) => rules[key] > 0) || rules.keepWithinMs > 0;
}
