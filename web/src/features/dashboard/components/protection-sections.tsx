import {
  durationToMs,
  TreeProtection,
  type CatalogSummaryResponse,
  type CatalogTreeSummary,
} from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import type { Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatCount, formatDuration } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { formatWindow, verificationCoverage } from '../utils/glance';
import { DashboardTableSection } from './dashboard-section';

interface SummaryProps {
  summary: CatalogSummaryResponse | undefined;
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
}

const treeLink = (tree: CatalogTreeSummary) => (
  <Link to={paths.tree(tree.treeId)} className="truncate" title={tree.treeId}>
    {tree.treeId}
  </Link>
);

const unprotectedColumns: readonly Column<CatalogTreeSummary>[] = [
  { id: 'tree', header: 'Tree', cell: treeLink },
  {
    id: 'why',
    header: 'Why',
    cell: (tree) =>
      tree.protection === TreeProtection.NO_SCHEDULE ? (
        <Badge tone="warning">No schedule</Badge>
      ) : (
        <Badge tone="danger">
          Behind: scheduled every {formatDuration(durationToMs(tree.scheduleInterval))}
        </Badge>
      ),
  },
  {
    id: 'success',
    header: 'Last success',
    cell: (tree) => <Time value={tree.lastSuccessAt} fallback="Never" />,
  },
  {
    id: 'fix',
    header: <span className="visually-hidden">Fix</span>,
    cell: (tree) => (
      <Link to={`${paths.schedules}?tree=${encodeURIComponent(tree.treeId)}`}>
        Schedule<span className="visually-hidden"> {tree.treeId}</span>
      </Link>
    ),
  },
];

/** Trees with no schedule, or no successful backup within twice their schedule's interval. */
export function UnprotectedTreesSection({ summary, isPending, error, onRetry }: SummaryProps) {
  const unprotected = (summary?.trees ?? []).filter(
    (tree) => tree.protection !== TreeProtection.PROTECTED,
  );
  return (
    <DashboardTableSection
      title="Unprotected trees"
      tone="warning"
      zeroTone={summary && summary.treeCount > 0n ? 'success' : 'neutral'}
      isPending={isPending}
      error={error}
      onRetry={onRetry}
      emptyTitle={
        summary && summary.treeCount > 0n ? 'Every tree is protected' : 'No tree to protect yet'
      }
      emptyText="A tree is protected when it has a schedule and a backup succeeded within twice its interval."
      more={<Link to={paths.schedules}>All schedules</Link>}
      caption="Trees without a schedule or behind it"
      columns={unprotectedColumns}
      rows={unprotected}
      rowKey={(tree) => tree.treeId}
    />
  );
}

const verificationColumns: readonly Column<CatalogTreeSummary>[] = [
  { id: 'tree', header: 'Tree', cell: treeLink },
  {
    id: 'never',
    header: 'Never verified',
    numeric: true,
    cell: (tree) => formatCount(tree.verification?.neverVerified ?? 0n),
  },
  {
    id: 'stale',
    header: 'Verified too long ago',
    numeric: true,
    cell: (tree) => formatCount(tree.verification?.verifiedStale ?? 0n),
  },
  {
    id: 'oldest',
    header: 'Oldest check',
    cell: (tree) => <Time value={tree.oldestVerifiedAt} fallback="—" />,
  },
];

/** Trees holding backups never verified, or verified longer ago than the stale window. */
export function VerificationSection({ summary, isPending, error, onRetry }: SummaryProps) {
  const behind = (summary?.trees ?? []).filter(
    (tree) =>
      (tree.verification?.neverVerified ?? 0n) + (tree.verification?.verifiedStale ?? 0n) > 0n,
  );
  const coverage = summary && verificationCoverage(summary);
  const window = summary ? formatWindow(durationToMs(summary.staleAfter)) : '';
  return (
    <DashboardTableSection
      title="Backups not verified recently"
      count={coverage ? coverage.neverVerified + coverage.stale : 0}
      tone="warning"
      zeroTone={coverage && coverage.backups > 0 ? 'success' : 'neutral'}
      isPending={isPending}
      error={error}
      onRetry={onRetry}
      emptyTitle={
        coverage && coverage.backups > 0
          ? `Every backup was verified within ${window}`
          : 'No backup to verify yet'
      }
      more={<Link to={`${paths.health}#verify-stale`}>Verify stale backups</Link>}
      caption="Trees with backups not verified recently"
      columns={verificationColumns}
      rows={behind}
      rowKey={(tree) => tree.treeId}
      intro={
        <p className="muted">
          {formatCount(coverage?.neverVerified ?? 0)} never verified,{' '}
          {formatCount(coverage?.stale ?? 0)} verified more than {window} ago.
        </p>
      }
    />
  );
}
