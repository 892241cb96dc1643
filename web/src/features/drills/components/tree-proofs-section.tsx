import type { TreeProof } from '@store/contract';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Spinner } from '../../../components/ui/spinner';
import { Table, type Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { ProofBadge } from '../../../lib/drills/proof-badge';
import { durationMs, proofState, rateWords, type ProofKind } from '../../../lib/drills/proof-words';
import { useTreeProofsQuery } from '../../../lib/drills/use-tree-proofs-query';
import { formatDuration } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useNow } from '../../../lib/use-now';
import { counted } from '../../../lib/words/counted';

/** Worst first: a failed proof, then never proven, then old, then fresh. */
const RANK: Record<ProofKind, number> = { failed: 0, never: 1, stale: 2, proven: 3 };

function columns(now: number): Column<TreeProof>[] {
  return [
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
    {
      id: 'at',
      header: 'Last proven',
      cell: (t) => <Time value={t.lastProven?.finishedAt} fallback="Never" compact />,
    },
    {
      id: 'backup',
      header: 'Backup',
      cell: (t) =>
        t.lastProven ? (
          <Link
            to={paths.backup(t.lastProven.backupId)}
            className={t.lastProven.backupName ? 'truncate' : 'truncate mono'}
            title={t.lastProven.backupId}
          >
            {t.lastProven.backupName || t.lastProven.backupId}
          </Link>
        ) : (
          <span className="muted">—</span>
        ),
    },
    {
      id: 'took',
      header: 'Restore took',
      numeric: true,
      cell: (t) =>
        t.lastProven
          ? `${formatDuration(durationMs(t.lastProven.duration))} (${rateWords(t.lastProven.entriesPerSecond)})`
          : '—',
    },
  ];
}

/**
 * Fleet health's proof per tree: every tree with its last proven restorable, worst first, so the
 * trees never proven head the list.
 */
export function TreeProofsSection() {
  const proofs = useTreeProofsQuery();
  const now = useNow();
  const rows = [...(proofs.data ?? [])].sort(
    (a, b) =>
      RANK[proofState(a, now).kind] - RANK[proofState(b, now).kind] ||
      a.treeId.localeCompare(b.treeId),
  );
  const never = rows.filter((t) => !t.lastProven).length;
  return (
    <section className="panel" id="tree-proofs" aria-labelledby="tree-proofs-title">
      <h2 id="tree-proofs-title" className="panel__title">
        Proven restorable, per tree
      </h2>
      {proofs.error && (
        <ErrorBanner
          title="Could not load the trees' proofs"
          error={proofs.error}
          onRetry={() => void proofs.refetch()}
        />
      )}
      {proofs.isPending && <Spinner label="Loading the trees' proofs…" />}
      {proofs.data && (
        <>
          {/* No trees: the empty table says so; "every tree is proven" would be true of none. */}
          {rows.length > 0 && (
            <p className="muted">
              {never === 0
                ? 'Every tree has a backup a drill proved restorable.'
                : `${counted(never, 'tree')} never proven restorable: run a drill from a backup's page.`}
            </p>
          )}
          <Table
            caption="Trees and their last proof of restore, worst first"
            captionHidden
            columns={columns(now)}
            rows={rows}
            rowKey={(t) => t.treeId}
            empty={<EmptyState title="No trees yet" />}
          />
        </>
      )}
    </section>
  );
}
