import type { TreeSummary } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Table, type Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatCount, formatDuration } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import type { OverdueScope } from '../api/attention';
import { DashboardSection } from './dashboard-section';

const deadLetterColumns: readonly Column<TreeSummary>[] = [
  {
    id: 'tree',
    header: 'Tree',
    cell: (tree) => <Link to={paths.tree(tree.treeId)}>{tree.treeId}</Link>,
  },
  {
    id: 'count',
    header: 'Dead letters',
    numeric: true,
    cell: (tree) => <Badge tone="danger">{formatCount(tree.deadLetterCount)}</Badge>,
  },
  {
    id: 'review',
    header: <span className="visually-hidden">Review</span>,
    cell: (tree) => (
      <Link to={`${paths.schemaTree(tree.treeId)}#schema-dead-letters`}>
        Review dead letters<span className="visually-hidden"> of {tree.treeId}</span>
      </Link>
    ),
  },
];

/** Trees holding writes their schema policy refused (ListTrees' counts: no call per tree). */
export function DeadLetterTreesSection({
  trees,
  isPending,
  error,
  onRetry,
}: {
  trees: readonly TreeSummary[];
  isPending: boolean;
  error: unknown;
  onRetry: () => void;
}) {
  const withDeadLetters = trees.filter((tree) => tree.deadLetterCount > 0n);
  return (
    <DashboardSection
      title="Trees with dead letters"
      count={withDeadLetters.length}
      tone="warning"
      isPending={isPending}
      error={error}
      onRetry={onRetry}
      emptyTitle="No tree holds dead letters"
      emptyText="Writes an ENFORCE policy refuses are kept as dead letters and counted here."
      more={<Link to={paths.trees}>All trees</Link>}
    >
      <Table
        caption="Trees with dead letters"
        captionHidden
        columns={deadLetterColumns}
        rows={withDeadLetters}
        rowKey={(tree) => tree.treeId}
      />
    </DashboardSection>
  );
}

const overdueColumns: readonly Column<OverdueScope>[] = [
  {
    id: 'tree',
    header: 'Tree',
    cell: (scope) => (
      <Link to={`${paths.schedules}?tree=${encodeURIComponent(scope.treeId)}`}>{scope.treeId}</Link>
    ),
  },
  {
    id: 'success',
    header: 'Last success',
    cell: (scope) => (
      <Time
        value={scope.lastSuccessMs === undefined ? undefined : new Date(scope.lastSuccessMs)}
        fallback="Never"
      />
    ),
  },
  { id: 'interval', header: 'Scheduled every', cell: (scope) => formatDuration(scope.intervalMs) },
  {
    id: 'late',
    header: 'Overdue by',
    cell: (scope) =>
      scope.lateByMs === undefined ? (
        <span className="muted">Runs, never succeeded</span>
      ) : (
        formatDuration(scope.lateByMs)
      ),
  },
];

/** Scheduled trees with no successful backup within twice their interval. */
export function OverdueScopesSection({
  overdue,
  checkedTrees,
  skipped,
  isPending,
  error,
}: {
  overdue: readonly OverdueScope[];
  checkedTrees: number;
  skipped: number;
  isPending: boolean;
  error: unknown;
}) {
  return (
    <DashboardSection
      title="Schedules behind"
      count={overdue.length}
      tone="warning"
      isPending={isPending}
      error={error}
      emptyTitle="Every schedule is on time"
      emptyText={`No scheduled tree (of ${checkedTrees} checked) lacks a successful backup within twice its interval.`}
      more={<Link to={paths.schedules}>All schedules</Link>}
    >
      <Table
        caption="Scheduled trees with no successful backup within twice their interval"
        captionHidden
        columns={overdueColumns}
        rows={overdue}
        rowKey={(scope) => scope.treeId}
      />
      {skipped > 0 && <p className="muted">{skipped} more trees were not checked.</p>}
    </DashboardSection>
  );
}
