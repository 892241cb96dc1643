import { useRef } from 'react';
import { useConnectivity } from '../../lib/services';
import {
  estimateProgress,
  formatAmount,
  formatRate,
  formatRemaining,
  isBytes,
} from '../../lib/progress/estimate';

export interface ProgressBarProps {
  /** Names the bar for assistive technology ("Backup progress"). */
  label: string;
  done: bigint | number;
  /** 0 when the total is not known (yet): the bar is indeterminate while the work runs. */
  total: bigint | number;
  /** What done and total count: entries, bytes (shown in KiB/MiB/GiB), artifacts … */
  unit?: string | undefined;
  /**
   * When counting began (an operation's start). Without it the bar measures from its own first
   * render, so a download or an import still gets a rate and a time left.
   */
  startedAt?: Date | undefined;
  /** When `done` was measured (the server's last progress write); now by default. */
  measuredAt?: Date | undefined;
  /**
   * running: moves (indeterminate when the total is unknown); complete: full and still;
   * stopped (failed, cancelled): still where it stopped.
   */
  phase?: 'running' | 'complete' | 'stopped';
}

/**
 * A progress bar a reader can plan with: "1.2 MiB of 4.0 MiB · 30 % · 2.1 MiB/s · about 2 s
 * left" where the total is known. Only running work animates; a finished bar is determinate.
 */
export function ProgressBar({
  label,
  done,
  total,
  unit,
  startedAt,
  measuredAt,
  phase = 'running',
}: ProgressBarProps) {
  // Running work whose server does not answer: where it is now, and when it ends, are unknown.
  const { unreachableSince } = useConnectivity();
  const unknown = phase === 'running' && unreachableSince !== null;
  // The first sample this bar saw, for work whose start the caller does not know.
  const first = useRef<{ at: number; done: number } | null>(null);
  first.current ??= { at: Date.now(), done: Number(done) };
  const now = measuredAt?.getTime() ?? Date.now();
  const from = startedAt ? { at: startedAt.getTime(), done: 0 } : first.current;

  const complete = phase === 'complete';
  const doneCount = complete && Number(total) > Number(done) ? Number(total) : Number(done);
  const estimate = estimateProgress({
    done: doneCount,
    total: Number(total),
    elapsedMs: now - from.at,
    doneAtStart: from.done,
  });
  const percent = complete ? 100 : estimate.percent;
  const determinate = percent !== undefined || phase !== 'running';

  const parts = [
    Number(total) > 0
      ? // "1,200 of 6,000 entries", but "1.2 MiB of 4.0 MiB": bytes carry their unit each time.
        `${formatAmount(doneCount, isBytes(unit) ? unit : undefined)} of ${formatAmount(total, unit)}`
      : formatAmount(doneCount, unit),
  ];
  if (percent !== undefined) parts.push(`${percent} %`);
  if (phase === 'running' && !unknown && estimate.perSecond !== undefined) {
    parts.push(formatRate(estimate.perSecond, unit));
    if (estimate.remainingMs !== undefined) parts.push(formatRemaining(estimate.remainingMs));
  }
  const text = unknown
    ? `unknown — server unreachable (last known: ${parts.join(' · ')})`
    : parts.join(' · ');

  return (
    <div className="progress" data-phase={unknown ? 'unknown' : phase}>
      <div
        className={
          determinate || unknown
            ? 'progress__track'
            : 'progress__track progress__track--indeterminate'
        }
        role="progressbar"
        aria-label={label}
        aria-valuemin={determinate ? 0 : undefined}
        aria-valuemax={determinate ? 100 : undefined}
        aria-valuenow={determinate ? (percent ?? 0) : undefined}
        aria-valuetext={text}
      >
        <div
          className="progress__fill"
          style={determinate ? { width: `${percent ?? 0}%` } : undefined}
        />
      </div>
      <span className="progress__text">{text}</span>
    </div>
  );
}
