import { StoreOperationState, type StoreOperationStatus } from '@store/contract';
import { Link } from 'react-router';
import { formatDuration, formatLocal } from '../../../lib/format';
import { kindLabel } from '../../../lib/operations/operation-kinds';
import { operationOutcome } from '../../../lib/operations/operation-outcome';
import { paths } from '../../../lib/paths';
import { useOperationTargetName } from '../../../components/operations/operation-target';
import { operationDurations } from '../utils/attention';
import { linearScale, median } from '../utils/chart-geometry';

const WIDTH = 560;
const HEIGHT = 120;
const PAD = 6;
/** Widest bar, so a handful of operations do not turn into blocks. */
const MAX_BAR = 24;
/** Most bars drawn: the newest ones. */
const MAX_BARS = 200;

const barClass = (state: StoreOperationState) =>
  state === StoreOperationState.SUCCEEDED
    ? 'chart__bar'
    : state === StoreOperationState.FAILED
      ? 'chart__bar chart__bar--failed'
      : 'chart__bar chart__bar--other';

/**
 * How long each operation that finished in the window ran: one bar per operation in the order
 * they finished (evenly spaced, so a burst of runs does not pile up), failures in the danger
 * colour. Inline SVG; the summary says the same in words.
 */
export function OperationDurationsChart({
  operations,
  fromMs,
  toMs,
}: {
  operations: readonly StoreOperationStatus[];
  fromMs: number;
  toMs: number;
}) {
  const finished = operationDurations(operations).filter(
    (point) => point.finishedMs >= fromMs && point.finishedMs <= toMs,
  );
  const points = finished.slice(-MAX_BARS);
  if (points.length === 0) return null;
  const longest = finished.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
  const slot = (WIDTH - 2 * PAD) / points.length;
  const bar = Math.max(1, Math.min(MAX_BAR, slot * 0.7));
  const height = linearScale(0, Math.max(longest.durationMs, 1), 1, HEIGHT - 2 * PAD);
  const mid = median(finished.map((point) => point.durationMs));
  const summary =
    `${finished.length} operations finished in the last 24 hours; median ${formatDuration(mid)}, ` +
    `longest ${formatDuration(longest.durationMs)}`;
  return (
    <figure className="chart-figure">
      <svg
        className="chart chart--wide"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={summary}
        preserveAspectRatio="none"
      >
        <line className="chart__axis" x1={0} x2={WIDTH} y1={HEIGHT - PAD} y2={HEIGHT - PAD} />
        {points.map((point, index) => {
          const h = height(point.durationMs);
          return (
            <rect
              key={point.operationId}
              className={barClass(point.operation.state)}
              x={PAD + index * slot + (slot - bar) / 2}
              y={HEIGHT - PAD - h}
              width={bar}
              height={h}
            >
              <title>
                {`${kindLabel(point.operation.kind)} ${point.operationId}: ${formatDuration(point.durationMs)}, ` +
                  `${operationOutcome(point.operation).label.toLowerCase()} ${formatLocal(new Date(point.finishedMs))}`}
              </title>
            </rect>
          );
        })}
      </svg>
      <figcaption className="chart-figure__caption">
        <span>Oldest</span>
        <span>
          {summary} (
          <LongestLink operation={longest.operation} />
          ). Failed runs are <span className="chart-key chart-key--failed">red</span>.
        </span>
        <span>Newest</span>
      </figcaption>
    </figure>
  );
}

/** The longest run, named by what it did and to what ("backup events"), not by its id. */
function LongestLink({ operation }: { operation: StoreOperationStatus }) {
  const target = useOperationTargetName(operation);
  return (
    <Link to={paths.operation(operation.operationId)} title={operation.operationId}>
      {kindLabel(operation.kind).toLowerCase()}
      {target && ` of ${target}`}
    </Link>
  );
}
