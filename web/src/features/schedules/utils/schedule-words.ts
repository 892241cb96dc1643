import { timestampMs } from '@bufbuild/protobuf/wkt';
import { BackupScopeRunOutcome, type LastScheduleRun } from '@store/contract';

/** The schedules overview in words: cadences, outcomes and how far away a run is. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** 86 400 000 → "24 h", 1 800 000 → "30 min", 90 000 → "90 s", 5 400 000 → "90 min". */
export function shortInterval(ms: number): string {
  if (ms >= HOUR && ms % HOUR === 0) return `${ms / HOUR} h`;
  if (ms >= MINUTE && ms % MINUTE === 0) return `${ms / MINUTE} min`;
  return `${Math.round(ms / SECOND)} s`;
}

/** How far `at` is from `now`: "in 3 h 5 min", "in 40 s", "due now", "12 min ago". */
export function relativeTime(at: number, now: number): string {
  const delta = at - now;
  const size = Math.abs(delta);
  if (size < SECOND) return 'due now';
  // Rounded to whole minutes first, so 59 min 59.9 s reads "1 h", not "60 min".
  const minutes = Math.round(size / MINUTE);
  const parts =
    size < MINUTE - SECOND / 2
      ? [`${Math.round(size / SECOND)} s`]
      : minutes < 60
        ? [`${minutes} min`]
        : minutes < 48 * 60
          ? [`${Math.floor(minutes / 60)} h`, `${minutes % 60} min`]
          : [`${Math.round(size / (24 * HOUR))} days`];
  const text = parts.filter((p) => !p.startsWith('0 ')).join(' ');
  return delta > 0 ? `in ${text}` : `${text} ago`;
}

export type OutcomeTone = 'success' | 'danger' | 'warning' | 'info' | 'neutral';

/** The last run in words: "Full backup succeeded", "Incremental skipped: no change since …". */
export function describeLastRun(run: LastScheduleRun | undefined): {
  text: string;
  tone: OutcomeTone;
} {
  if (!run) return { text: 'No run yet', tone: 'neutral' };
  const kind = run.incremental ? 'Incremental' : 'Full';
  switch (run.outcome) {
    case BackupScopeRunOutcome.SUCCEEDED:
      return { text: `${kind} backup succeeded`, tone: 'success' };
    case BackupScopeRunOutcome.FAILED:
      return { text: `${kind} backup failed`, tone: 'danger' };
    case BackupScopeRunOutcome.RUNNING:
      return { text: `${kind} backup running`, tone: 'info' };
    case BackupScopeRunOutcome.SKIPPED:
      return {
        text: run.reason ? `${kind} run skipped: ${run.reason}` : `${kind} run skipped`,
        tone: 'warning',
      };
    default:
      return { text: 'No run yet', tone: 'neutral' };
  }
}

/** The run time of a cadence or planned run as epoch ms (0 when unset). */
export function msOf(timestamp: Parameters<typeof timestampMs>[0] | undefined): number {
  return timestamp ? timestampMs(timestamp) : 0;
}
