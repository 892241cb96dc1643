import type { BackupManifest } from '@store/contract';
import { Link } from 'react-router';
import { formatBytes, formatLocal } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { backupSizesByTree } from '../utils/attention';
import { linearScale } from '../utils/chart-geometry';

const WIDTH = 260;
const HEIGHT = 70;
const PAD = 6;
/** Trees drawn; the ones holding the most backup bytes come first. */
const MAX_TREES = 8;

/**
 * Backup bytes over time, one small chart per tree on a shared time axis (each on its own size
 * scale, labelled with its largest backup), drawn as inline SVG.
 */
export function BackupBytesChart({
  backups,
  fromMs,
  toMs,
}: {
  backups: readonly BackupManifest[];
  fromMs: number;
  toMs: number;
}) {
  const trees = backupSizesByTree(backups);
  const x = linearScale(fromMs, toMs, PAD, WIDTH - PAD);
  return (
    <>
      <ul className="plain-list chart-grid">
        {trees.slice(0, MAX_TREES).map(({ treeId, points }) => {
          const largest = Math.max(...points.map((point) => point.bytes));
          const latest = points.at(-1);
          const y = linearScale(0, largest, HEIGHT - PAD, PAD);
          const summary =
            `Tree ${treeId}: ${points.length} ${points.length === 1 ? 'backup' : 'backups'} in 30 days, ` +
            `largest ${formatBytes(largest)}` +
            (latest ? `, latest ${formatBytes(latest.bytes)}` : '');
          return (
            <li key={treeId} className="chart-card">
              <p className="chart-card__title">
                <Link to={paths.tree(treeId)}>{treeId}</Link>{' '}
                <span className="muted">
                  {points.length} · up to {formatBytes(largest)}
                </span>
              </p>
              <svg
                className="chart"
                viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
                role="img"
                aria-label={summary}
                preserveAspectRatio="none"
              >
                <line
                  className="chart__axis"
                  x1={PAD}
                  x2={WIDTH - PAD}
                  y1={HEIGHT - PAD}
                  y2={HEIGHT - PAD}
                />
                {points.length > 1 && (
                  <polyline
                    className="chart__line"
                    points={points.map((point) => `${x(point.atMs)},${y(point.bytes)}`).join(' ')}
                  />
                )}
                {points.map((point) => (
                  <circle
                    key={point.backupId}
                    className="chart__dot"
                    cx={x(point.atMs)}
                    cy={y(point.bytes)}
                    r={3}
                  >
                    <title>
                      {`${point.name || point.backupId}: ${formatBytes(point.bytes)}, ${formatLocal(new Date(point.atMs))}`}
                    </title>
                  </circle>
                ))}
              </svg>
            </li>
          );
        })}
      </ul>
      {trees.length > MAX_TREES && (
        <p className="muted">
          {trees.length - MAX_TREES} more trees with backups: see the{' '}
          <Link to={paths.backups}>catalog</Link>.
        </p>
      )}
    </>
  );
}
