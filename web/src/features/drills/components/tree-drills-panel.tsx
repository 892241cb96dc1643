import { RestoreDrillOutcome } from '@store/contract';
import { ErrorText } from '../../../components/ui/error-text';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import { ProofBadge } from '../../../lib/drills/proof-badge';
import {
  drillOutcomeWords,
  expectedRestoreMs,
  type ProofRecords,
} from '../../../lib/drills/proof-words';
import { treeProofMap, useTreeProofsQuery } from '../../../lib/drills/use-tree-proofs-query';
import { formatDuration } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { counted } from '../../../lib/words/counted';
import { useDrillHistoryQuery } from '../api/use-drill-history-query';
import { DrillHistoryTable } from './drill-history-table';

/**
 * A tree's page: when it was last proven restorable, the expected time to restore (the median
 * of its proven drills' durations), and its drill history with durations.
 */
export function TreeDrillsPanel({ treeId }: { treeId: string }) {
  const now = useNow();
  const proofs = useTreeProofsQuery();
  const proof: ProofRecords = treeProofMap(proofs.data).get(treeId) ?? {};
  const history = useDrillHistoryQuery(treeId);
  const drills = history.data ?? [];
  const expected = expectedRestoreMs(drills);
  const provenCount = drills.filter((d) => d.outcome === RestoreDrillOutcome.PROVEN).length;

  return (
    <section className="panel drills-panel" aria-labelledby="tree-drills" data-testid="tree-drills">
      <h2 id="tree-drills" className="panel__title">
        Restore drills
      </h2>
      <dl className="facts">
        <dt>Last proven restorable</dt>
        <dd data-testid="tree-last-proven">
          <ProofBadge proof={proof} now={now} />{' '}
          {proof.lastProven ? (
            <>
              <Time value={proof.lastProven.finishedAt} />.{' '}
              <span className="drill-words">{drillOutcomeWords(proof.lastProven)}</span>
            </>
          ) : (
            <span className="muted">No drill has proven a backup of this tree yet.</span>
          )}
        </dd>
        <dt>Expected time to restore</dt>
        <dd data-testid="tree-expected-restore">
          {expected === undefined ? (
            <span className="muted">Unknown until a drill proves a backup.</span>
          ) : (
            <>
              About {formatDuration(expected)}{' '}
              <span className="muted">
                (median of the last {counted(provenCount, 'proven drill')})
              </span>
            </>
          )}
        </dd>
      </dl>
      {history.isPending ? (
        <Spinner label="Loading the drills…" />
      ) : history.error ? (
        <ErrorText error={history.error} lead="Could not load the drills:" />
      ) : (
        <DrillHistoryTable
          drills={drills}
          caption={`Drills of tree ${treeId}, newest first`}
          showBackup
        />
      )}
    </section>
  );
}
