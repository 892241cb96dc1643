import { formatCount } from '../../lib/format';

export interface ProgressBarProps {
  /** Names the bar for assistive technology ("Backup progress"). */
  label: string;
  done: bigint | number;
  /** 0 when the total is not known yet: the bar is indeterminate. */
  total: bigint | number;
  /** What done and total count: entries, bytes, artifacts … */
  unit?: string;
}

/** A determinate or indeterminate progress bar with "done / total unit" as text. */
export function ProgressBar({ label, done, total, unit }: ProgressBarProps) {
  const known = Number(total) > 0;
  const percent = known ? Math.min(100, Math.round((Number(done) / Number(total)) * 100)) : 0;
  const text = known
    ? `${formatCount(done)} / ${formatCount(total)}${unit ? ` ${unit}` : ''} (${percent}%)`
    : `${formatCount(done)}${unit ? ` ${unit}` : ''}`;
  return (
    <div className="progress">
      <div
        className={known ? 'progress__track' : 'progress__track progress__track--indeterminate'}
        role="progressbar"
        aria-label={label}
        aria-valuemin={known ? 0 : undefined}
        aria-valuemax={known ? 100 : undefined}
        aria-valuenow={known ? percent : undefined}
        aria-valuetext={text}
      >
        <div className="progress__fill" style={known ? { width: `${percent}%` } : undefined} />
      </div>
      <span className="progress__text">{text}</span>
    </div>
  );
}
