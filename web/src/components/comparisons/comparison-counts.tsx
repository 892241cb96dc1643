import type { BackupComparisonCounts } from '@store/contract';
import { formatCount } from '../../lib/format';

/** What each kind of difference is called where it is shown (a revert "brings back" keys). */
export interface ChangeLabels {
  added: string;
  changed: string;
  removed: string;
}

export const DEFAULT_CHANGE_LABELS: ChangeLabels = {
  added: 'Added',
  changed: 'Changed',
  removed: 'Removed',
};

/** Added / changed / removed / unchanged, first thing an admin reads before the details. */
export function ComparisonCounts({
  counts,
  label,
  labels = DEFAULT_CHANGE_LABELS,
}: {
  counts: BackupComparisonCounts | undefined;
  label: string;
  labels?: ChangeLabels;
}) {
  const items = [
    [labels.added, counts?.added ?? 0n, 'comparison-counts__added'],
    [labels.changed, counts?.changed ?? 0n, 'comparison-counts__changed'],
    [labels.removed, counts?.removed ?? 0n, 'comparison-counts__removed'],
    ['Unchanged', counts?.unchanged ?? 0n, ''],
  ] as const;
  return (
    <dl className="comparison-counts" aria-label={label} data-testid="comparison-counts">
      {items.map(([name, value, className]) => (
        <div key={name} className={`comparison-counts__item ${className}`}>
          <dt>{name}</dt>
          <dd>{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}
