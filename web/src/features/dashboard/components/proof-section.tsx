import type { TreeProof } from '@store/contract';
import { Link } from 'react-router';
import type { Column } from '../../../components/ui/table';
import { ProofBadge } from '../../../lib/drills/proof-badge';
import { proofCounts, RECENT_PROOF_DAYS } from '../../../lib/drills/proof-words';
import { useTreeProofsQuery } from '../../../lib/drills/use-tree-proofs-query';
import { paths } from '../../../lib/paths';
import { counted } from '../../../lib/words/counted';
import { DashboardTableSection } from './dashboard-section';

/** Rows shown; the rest are on fleet health. */
const SHOWN = 8;

/**
 * Trees never proven restorable, or not within RECENT_PROOF_DAYS (or whose newest drill failed),
 * each linking to its tree page, where its drills are.
 */
export function ProofSection({ now }: { now: number }) {
  const proofs = useTreeProofsQuery();
  const trees = proofs.data ?? [];
  const counts = proofCounts(trees, now);
  const byId = new Map(trees.map((t) => [t.treeId, t]));
  const attention = [...counts.never, ...counts.notRecent].flatMap((id) => byId.get(id) ?? []);
  const columns: readonly Column<TreeProof>[] = [
    {
      id: 'tree',
      header: 'Tree',
      cell: (t) => (
        <Link to={paths.tree(t.treeId)} className="truncate" title={t.treeId}>
          {t.treeId}
        </Link>
      ),
    },
    { id: 'proof', header: 'Proof', cell: (t) => <ProofBadge proof={t} now={now} /> },
  ];
  return (
    <DashboardTableSection
      title="Trees not proven restorable"
      tone="warning"
      zeroTone={trees.length > 0 ? 'success' : 'neutral'}
      isPending={proofs.isPending}
      error={proofs.error}
      onRetry={() => void proofs.refetch()}
      emptyTitle={
        trees.length > 0
          ? `Every tree was proven restorable in the last ${RECENT_PROOF_DAYS} days`
          : 'No trees yet'
      }
      caption="Trees never proven restorable or not recently"
      columns={columns}
      rows={attention.slice(0, SHOWN)}
      count={attention.length}
      rowKey={(t) => t.treeId}
      intro={
        <p data-testid="proof-counts">
          {counted(counts.never.length, 'tree')} never proven,{' '}
          {counted(counts.notRecent.length, 'tree')} not proven in the last {RECENT_PROOF_DAYS} days
          or failing.
        </p>
      }
      more={<Link to={`${paths.health}#tree-proofs`}>Every tree's proof</Link>}
    />
  );
}
