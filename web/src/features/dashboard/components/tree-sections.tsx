import type { TreeSummary } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import type { Column } from '../../../components/ui/table';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { DashboardTableSection } from './dashboard-section';

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
    <DashboardTableSection
      title="Trees with dead letters"
      tone="warning"
      isPending={isPending}
      error={error}
      onRetry={onRetry}
      emptyTitle="No tree holds dead letters"
      emptyText="Writes a policy in Enforce mode refuses are kept as dead letters and counted here."
      more={<Link to={paths.trees}>All trees</Link>}
      caption="Trees with dead letters"
      columns={deadLetterColumns}
      rows={withDeadLetters}
      rowKey={(tree) => tree.treeId}
    />
  );
}
