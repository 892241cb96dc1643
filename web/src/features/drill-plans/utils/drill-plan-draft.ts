import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  DrillPlanBackupChoice,
  durationFromMs,
  durationToMs,
  type RestoreDrillPlan,
  type SetRestoreDrillPlanRequestSchema,
} from '@store/contract';
import type { SchedulePageScope } from '../../../components/schedules/scope-section';
import { parseInterval, splitInterval, type IntervalUnit } from '../../../lib/interval';

/** What the plan form holds, as typed. */
export interface DrillPlanDraft {
  name: string;
  scheduled: boolean;
  amount: string;
  unit: IntervalUnit;
  anchored: boolean;
  timeOfDay: string;
  timeZone: string;
  choice: DrillPlanBackupChoice;
  windowAmount: string;
  windowUnit: IntervalUnit;
  maxEntriesPerSecond: string;
  paused: boolean;
}

export type DraftField = 'name' | 'interval' | 'timeOfDay' | 'timeZone' | 'window' | 'rate';

const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
const ZONES = new Set(Intl.supportedValuesOf('timeZone'));

/** A new plan's draft (daily at 02:00 in the browser's zone, the newest backup), or a plan's. */
export function draftOf(plan?: RestoreDrillPlan): DrillPlanDraft {
  const interval = splitInterval(plan?.cadence ? durationToMs(plan.cadence.interval) : 86_400_000);
  const window = splitInterval(plan?.window ? durationToMs(plan.window) : 7 * 86_400_000);
  return {
    name: plan?.name ?? '',
    scheduled: plan ? plan.cadence !== undefined : true,
    amount: interval.amount,
    unit: interval.unit,
    anchored: plan ? (plan.cadence?.timeOfDay ?? '') !== '' : true,
    timeOfDay: plan?.cadence?.timeOfDay || '02:00',
    timeZone: plan?.cadence?.timeZone || BROWSER_ZONE,
    choice: plan?.choice ?? DrillPlanBackupChoice.NEWEST,
    windowAmount: window.amount,
    windowUnit: window.unit,
    maxEntriesPerSecond: String(plan?.maxEntriesPerSecond ?? 0),
    paused: plan?.paused ?? false,
  };
}

export type DraftCheck =
  | { ok: true; request: MessageInitShape<typeof SetRestoreDrillPlanRequestSchema> }
  | { ok: false; errors: Partial<Record<DraftField, string>> };

/** The draft checked as the server would, and the request it sends. */
export function requestOf(draft: DrillPlanDraft, scope: SchedulePageScope): DraftCheck {
  const errors: Partial<Record<DraftField, string>> = {};
  const name = draft.name.trim();
  if (name === '') errors.name = 'Enter a name for the plan.';
  else if (name.length > 100) errors.name = 'At most 100 characters.';
  const interval = parseInterval(draft.amount, draft.unit);
  if (draft.scheduled && !interval.ok) errors.interval = interval.error;
  if (draft.scheduled && draft.anchored) {
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(draft.timeOfDay)) {
      errors.timeOfDay = 'Enter a time as HH:mm, for example 02:00.';
    }
    if (!ZONES.has(draft.timeZone) && draft.timeZone !== 'UTC') {
      errors.timeZone = `${draft.timeZone} is not a time zone this browser knows.`;
    }
  }
  const random = draft.choice === DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW;
  const window = parseInterval(draft.windowAmount, draft.windowUnit);
  if (random && !window.ok) errors.window = window.error;
  const rate = draft.maxEntriesPerSecond.trim();
  if (!/^\d+$/.test(rate) || Number(rate) > 10_000_000) {
    errors.rate = 'A whole number from 0 (no limit) to 10 000 000.';
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    request: {
      scope: {
        treeId: scope.treeId,
        ...(scope.keyPrefix !== '' && { keyPrefix: scope.keyPrefix }),
      },
      name,
      ...(draft.scheduled &&
        interval.ok && {
          cadence: {
            interval: durationFromMs(interval.ms),
            ...(draft.anchored && { timeOfDay: draft.timeOfDay, timeZone: draft.timeZone }),
          },
        }),
      choice: draft.choice,
      ...(random && window.ok && { window: durationFromMs(window.ms) }),
      maxEntriesPerSecond: Number(rate),
      paused: draft.paused,
    },
  };
}
