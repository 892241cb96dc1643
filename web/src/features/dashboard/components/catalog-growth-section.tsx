import type { CatalogSummaryResponse } from '@store/contract';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { formatBytes, formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { linearScale } from '../utils/chart-geometry';
import {
  freedText,
  growthChangeText,
  growthSeries,
  type GrowthSeries,
} from '../utils/catalog-growth';

const WIDTH = 260;
const HEIGHT = 70;
const PAD = 6;
/** Trees drawn; the ones storing the most bytes now come first. */
const MAX_TREES = 8;

/** Stored bytes (solid) and backups (dashed) per day, each on its own scale from zero. */
function GrowthSparkline({ series, label }: { series: GrowthSeries; label: string }) {
  const { days } = series;
  const x = linearScale(0, Math.max(days.length - 1, 1), PAD, WIDTH - PAD);
  const line = (value: (d: (typeof days)[number]) => number) => {
    const y = linearScale(0, Math.max(...days.map(value), 1), HEIGHT - PAD, PAD);
    return days.map((d, i) => `${x(i)},${y(value(d))}`).join(' ');
  };
  return (
    <svg
      className="chart"
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-label={label}
      preserveAspectRatio="none"
    >
      <line className="chart__axis" x1={PAD} x2={WIDTH - PAD} y1={HEIGHT - PAD} y2={HEIGHT - PAD} />
      <polyline className="chart__line" points={line((d) => d.bytes)} />
      <polyline className="chart__line chart__line--secondary" points={line((d) => d.backups)} />
    </svg>
  );
}

/** "3 backups · 1.2 MB · +2 backups, +1.0 MB": now, then the change over the window. */
function cardFacts(series: GrowthSeries): string {
  const backups = series.latest?.backups ?? 0;
  return (
    `${formatCount(backups)} ${backups === 1 ? 'backup' : 'backups'} · ` +
    `${formatBytes(series.latest?.bytes ?? 0)} · ${growthChangeText(series)}`
  );
}

function describe(name: string, series: GrowthSeries): string {
  const latest = series.latest;
  const first = series.days[0];
  if (!latest || !first) return `${name}: no data`;
  return (
    `${name}: ${formatCount(latest.backups)} ${latest.backups === 1 ? 'backup' : 'backups'}, ` +
    `${formatBytes(latest.bytes)} stored now; ` +
    `${growthChangeText(series)} since ${new Date(first.dayMs).toISOString().slice(0, 10)}`
  );
}

/**
 * Catalog growth: backups and stored bytes over the last 30 days, in total and per tree, and
 * what retention freed. The server rebuilds each day's end from the catalog and retention's
 * deletion records (a backup DeleteBackup removed counts on no day).
 */
export function CatalogGrowthSection({
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
  const total = summary ? growthSeries(summary.growth) : undefined;
  const trees = (summary?.trees ?? [])
    .map((tree) => ({ treeId: tree.treeId, series: growthSeries(tree.growth) }))
    .filter(({ series }) => series.days.some((d) => d.backups > 0))
    .sort((a, b) => (b.series.latest?.bytes ?? 0) - (a.series.latest?.bytes ?? 0));
  return (
    <section className="panel" aria-labelledby="dash-growth">
      <h2 id="dash-growth" className="panel__title">
        Catalog growth, last 30 days
      </h2>
      {error != null && (
        <ErrorBanner title="Could not load the catalog summary" error={error} onRetry={onRetry} />
      )}
      {isPending && <Spinner label="Loading the catalog summary…" />}
      {summary && total && (
        <>
          <dl className="growth-facts" data-testid="retention-freed">
            <div>
              <dt>Retention freed, last 24 hours</dt>
              <dd>{freedText(summary.retentionFreedLastDay)}</dd>
            </div>
            <div>
              <dt>Retention freed, last 30 days</dt>
              <dd>{freedText(summary.retentionFreedLast30Days)}</dd>
            </div>
          </dl>
          {trees.length === 0 ? (
            <EmptyState title="Nothing in the catalog during the last 30 days">
              Start one from the <Link to={paths.backups}>Backups</Link> page.
            </EmptyState>
          ) : (
            <>
              <p className="muted growth-legend">
                Solid line: stored bytes; dashed: backups; each day&apos;s end (UTC), each on its
                own scale. Rebuilt from the catalog and retention&apos;s deletion records: a backup
                removed with Delete counts on no day.
              </p>
              <ul className="plain-list chart-grid">
                <li className="chart-card" data-testid="growth-total">
                  <p className="chart-card__title">
                    <strong>All trees</strong> <span className="muted">{cardFacts(total)}</span>
                  </p>
                  <GrowthSparkline series={total} label={describe('All trees', total)} />
                </li>
                {trees.slice(0, MAX_TREES).map(({ treeId, series }) => (
                  <li key={treeId} className="chart-card" data-testid="growth-tree">
                    <p className="chart-card__title">
                      <Link to={paths.tree(treeId)}>{treeId}</Link>{' '}
                      <span className="muted">{cardFacts(series)}</span>
                    </p>
                    <GrowthSparkline series={series} label={describe(`Tree ${treeId}`, series)} />
                  </li>
                ))}
              </ul>
              {trees.length > MAX_TREES && (
                <p className="muted">
                  {trees.length - MAX_TREES} more trees with backups: see the{' '}
                  <Link to={paths.backups}>catalog</Link>.
                </p>
              )}
            </>
          )}
        </>
      )}
    </section>
  );
}
