import { timestampMs } from '@bufbuild/protobuf/wkt';
import {
  DrillPlanBackupChoice,
  DrillPlanRunOutcome,
  durationToMs,
  type DrillPlanLastRun,
  type RestoreDrillPlan,
} from '@store/contract';
import { formatInterval } from '../../../lib/interval';

/** Drill plans in words: which backup, when, and how the last run went. */

export type PlanTone = 'success' | 'danger' | 'warning' | 'info' | 'neutral';

/** "the newest backup", "a random backup of the last 7 days", "each new full backup". */
export function describeChoice(plan: Pick<RestoreDrillPlan, 'choice' | 'window'>): string {
  switch (plan.choice) {
    case DrillPlanBackupChoice.NEWEST:
      return 'The newest backup';
    case DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW:
      return `A random backup of the last ${formatInterval(durationToMs(plan.window))}`;
    case DrillPlanBackupChoice.EACH_NEW_FULL:
      return 'Each new full backup, once';
    default:
      return 'Unknown choice';
  }
}

/** "On demand", "Every 1 day at 02:00 (Europe/Berlin)", "Every 6 hours". */
export function describeWhen(plan: Pick<RestoreDrillPlan, 'cadence'>): string {
  const cadence = plan.cadence;
  if (!cadence) return 'On demand';
  const every = `Every ${formatInterval(durationToMs(cadence.interval))}`;
  return cadence.timeOfDay !== ''
    ? `${every} at ${cadence.timeOfDay} (${cadence.timeZone})`
    : every;
}

/** The last run as a badge and the words behind it. */
export function describeLastRun(run: DrillPlanLastRun | undefined): {
  text: string;
  tone: PlanTone;
} {
  switch (run?.outcome) {
    case undefined:
    case DrillPlanRunOutcome.UNSPECIFIED:
      return { text: 'Never ran', tone: 'neutral' };
    case DrillPlanRunOutcome.RUNNING:
      return { text: 'Running', tone: 'info' };
    case DrillPlanRunOutcome.PROVEN:
      return { text: 'Proven', tone: 'success' };
    case DrillPlanRunOutcome.FAILED:
      return { text: 'Failed', tone: 'danger' };
    case DrillPlanRunOutcome.SKIPPED:
      return { text: 'Skipped', tone: 'warning' };
    case DrillPlanRunOutcome.DID_NOT_FINISH:
      return { text: 'Did not finish', tone: 'warning' };
    default:
      return { text: 'Unknown', tone: 'neutral' };
  }
}

/** A timestamp as epoch ms (0 when unset). */
export function msOf(timestamp: Parameters<typeof timestampMs>[0] | undefined): number {
  return timestamp ? timestampMs(timestamp) : 0;
}
