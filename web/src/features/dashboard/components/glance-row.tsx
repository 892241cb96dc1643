import type { CatalogSummaryResponse } from '@store/contract';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { glanceTiles } from '../utils/glance';

/** The dashboard's totals: one tile per number, its colour earned by the checks behind it. */
export function GlanceRow({
  summary,
  isPending,
  error,
  onRetry,
}: {
  summary: CatalogSummaryResponse | undefined;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  if (error) {
    return <ErrorBanner title="Could not load the totals" error={error} onRetry={onRetry} />;
  }
  if (isPending || !summary) return <Spinner label="Loading totals…" />;
  return (
    <section aria-labelledby="dash-glance" className="glance">
      <h2 id="dash-glance" className="visually-hidden">
        At a glance
      </h2>
      <dl className="glance__tiles">
        {glanceTiles(summary).map((tile) => (
          <div
            key={tile.id}
            className={`glance__tile glance__tile--${tile.tone}`}
            data-tile={tile.id}
          >
            <dt className="glance__label">{tile.label}</dt>
            <dd className="glance__value">{tile.value}</dd>
            {tile.note && <dd className="glance__note">{tile.note}</dd>}
          </div>
        ))}
      </dl>
    </section>
  );
}
