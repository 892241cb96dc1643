import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  durationFromMs,
  durationToMs,
  type RetentionRulesResponse,
  type RetentionRulesSchema,
} from '@store/contract';
import { INTERVAL_UNITS, type IntervalUnit } from '../../../lib/interval';

/** The period counts of the rules, in the order the form shows them. */
export const COUNT_RULES = [
  { key: 'keepLast', label: 'Keep last', hint: 'The newest N backups.' },
  { key: 'keepHourly', label: 'Hourly', hint: 'The newest backup of each of the last N hours.' },
  { key: 'keepDaily', label: 'Daily', hint: 'The newest of each of the last N days.' },
  { key: 'keepWeekly', label: 'Weekly', hint: 'The newest of each of the last N ISO weeks.' },
  { key: 'keepMonthly', label: 'Monthly', hint: 'The newest of each of the last N months.' },
  { key: 'keepYearly', label: 'Yearly', hint: 'The newest of each of the last N years.' },
] as const;

export type CountRule = (typeof COUNT_RULES)[number]['key'];

/** The rules form as typed: text fields, so a half-typed number is not lost. */
export interface RulesDraft {
  counts: Record<CountRule, string>;
  /** Keep everything created within this long of the newest backup ('' or 0: off). */
  withinAmount: string;
  withinUnit: IntervalUnit;
  /** IANA zone of the calendar periods; '' is UTC. */
  timeZone: string;
  applyAfterSchedule: boolean;
}

export type WireRules = MessageInitShape<typeof RetentionRulesSchema>;

export type ParsedDraft =
  | { ok: true; rules: WireRules; withinMs: number; applyAfterSchedule: boolean }
  | { ok: false; errors: Partial<Record<CountRule | 'within', string>> };

const MAX_COUNT = 1_000_000;

function parseCount(text: string): number | string {
  const trimmed = text.trim();
  if (trimmed === '') return 0;
  if (!/^\d+$/.test(trimmed)) return 'Enter a whole number (0 turns the rule off).';
  const value = Number(trimmed);
  return value > MAX_COUNT ? `At most ${MAX_COUNT.toLocaleString('en')}.` : value;
}

/** Checks the form and builds the wire rules; errors name the field they belong to. */
export function parseRulesDraft(draft: RulesDraft): ParsedDraft {
  const errors: Partial<Record<CountRule | 'within', string>> = {};
  const rules: WireRules = { timeZone: draft.timeZone.trim() };
  for (const { key } of COUNT_RULES) {
    const parsed = parseCount(draft.counts[key]);
    if (typeof parsed === 'string') errors[key] = parsed;
    else rules[key] = parsed;
  }
  const within = parseCount(draft.withinAmount);
  const withinMs = typeof within === 'number' ? within * INTERVAL_UNITS[draft.withinUnit] : 0;
  if (typeof within === 'string') errors.within = within;
  else if (withinMs > 0) rules.keepWithin = durationFromMs(withinMs);
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, rules, withinMs, applyAfterSchedule: draft.applyAfterSchedule };
}

/** The largest unit that divides a duration evenly, so 48 h reads as "2 days". */
function splitDuration(ms: number): { amount: string; unit: IntervalUnit } {
  if (ms <= 0) return { amount: '', unit: 'days' };
  const units = Object.entries(INTERVAL_UNITS).reverse() as Array<[IntervalUnit, number]>;
  for (const [unit, size] of units) {
    if (ms % size === 0) return { amount: String(ms / size), unit };
  }
  return { amount: String(Math.round(ms / 1000)), unit: 'seconds' };
}

/** The form filled from the stored rules (none stored: everything off, apply after schedule on). */
export function draftFromResponse(response: RetentionRulesResponse | undefined): RulesDraft {
  const rules = response?.rules;
  const count = (value: number | undefined) => (value ? String(value) : '');
  const within = splitDuration(rules?.keepWithin ? durationToMs(rules.keepWithin) : 0);
  return {
    counts: {
      keepLast: count(rules?.keepLast),
      keepHourly: count(rules?.keepHourly),
      keepDaily: count(rules?.keepDaily),
      keepWeekly: count(rules?.keepWeekly),
      keepMonthly: count(rules?.keepMonthly),
      keepYearly: count(rules?.keepYearly),
    },
    withinAmount: within.amount,
    withinUnit: within.unit,
    timeZone: rules?.timeZone ?? '',
    // A scope without rules answers the server's default for new rules (off unless set).
    applyAfterSchedule: response?.applyAfterSchedule ?? false,
  };
}

/** Whether two drafts mean the same rules (what decides "unsaved changes"). */
export function sameRules(a: RulesDraft, b: RulesDraft): boolean {
  const pa = parseRulesDraft(a);
  const pb = parseRulesDraft(b);
  if (!pa.ok || !pb.ok) return false;
  const norm = (p: typeof pa) =>
    JSON.stringify({
      ...p.rules,
      keepWithin: p.withinMs,
      applyAfterSchedule: p.applyAfterSchedule,
    });
  return norm(pa) === norm(pb);
}

/** "Delete 12 backups (340 MiB)": what the confirm button says. */
export function applyLabel(count: bigint, bytes: string): string {
  return `Delete ${count.toLocaleString('en')} backup${count === 1n ? '' : 's'} (${bytes})`;
}
