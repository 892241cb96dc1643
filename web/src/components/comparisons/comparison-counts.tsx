import type { BackupComparisonCounts } from '@store/contract';
import { formatCount } from '../../lib/format';

/** Added / changed / removed / unchanged, first thing an admin reads before the details. */
export function ComparisonCounts({
  counts,
  label,
}: {
  counts: BackupComparisonCounts | undefined;
  label: string;
}) {
  const items = [
    ['Added', counts?.added ?? 0n, 'comparison-counts__added'],
    ['Changed', counts?.changed ?? 0n, 'comparison-counts__changed'],
    ['Removed', counts?.removed ?? 0n, 'comparison-counts__removed'],
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
