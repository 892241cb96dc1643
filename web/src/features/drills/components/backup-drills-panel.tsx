import { StoreOperationState, type BackupManifest } from '@store/contract';
import { useState } from 'react';
import { ErrorText } from '../../../components/ui/error-text';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import { ProofBadge } from '../../../lib/drills/proof-badge';
import { drillOutcomeWords, type ProofRecords } from '../../../lib/drills/proof-words';
import { useBackupProofsQuery } from '../../../lib/drills/use-backup-proofs-query';
import { useRoles } from '../../../lib/identity/use-roles';
import { stateLabel } from '../../../lib/operations/operation-kinds';
import { useNow } from '../../../lib/use-now';
import { useDrillHistoryQuery } from '../api/use-drill-history-query';
import { useDrillRun, useStartDrillMutation } from '../api/use-run-drill';
import { DrillHistoryTable } from './drill-history-table';

/**
 * A backup's page: is it proven restorable, when, and how long the restore took; "Run drill"
 * (operator) followed live until it says PROVEN or FAILED in words; this backup's drills.
 */
export function BackupDrillsPanel({ manifest }: { manifest: BackupManifest }) {
  const now = useNow();
  const roles = useRoles();
  const [running, setRunning] = useState<string | null>(null);
  const start = useStartDrillMutation(setRunning);
  const run = useDrillRun(running);
  const proofs = useBackupProofsQuery([manifest.backupId]);
  const proof: ProofRecords = proofs.data?.get(manifest.backupId) ?? {};
  const history = useDrillHistoryQuery(manifest.treeId, manifest.keyPrefix ?? '');
  const own = (history.data ?? []).filter((d) => d.backupId === manifest.backupId);
  const active =
    run.status !== undefined &&
    (run.status.state === StoreOperationState.QUEUED ||
      run.status.state === StoreOperationState.RUNNING);

  return (
    <section className="panel" aria-labelledby="backup-drills" data-testid="backup-drills">
      <h2 id="backup-drills" className="panel__title">
        Restore drills
      </h2>
      <dl className="facts">
        <dt>Last proven restorable</dt>
        <dd data-testid="backup-last-proven">
          <ProofBadge proof={proof} now={now} />{' '}
          {proof.lastProven ? (
            <>
              <Time value={proof.lastProven.finishedAt} />.{' '}
              <span className="drill-words">{drillOutcomeWords(proof.lastProven)}</span>
            </>
          ) : (
            <span className="muted">No drill has proven this backup yet.</span>
          )}
        </dd>
      </dl>
      <div className="retention-actions">
        <GuardedButton
          variant="primary"
          allowed={roles.atLeast('operator')}
          reason={roles.needs('operator')}
          disabled={roles.isLoading || active}
          busy={start.isPending}
          onClick={() => start.mutate(manifest.backupId)}
        >
          Run drill
        </GuardedButton>
      </div>
      {running !== null && (
        <div role="status" className="drill-run" data-testid="drill-run">
          {run.error ? (
            <ErrorText error={run.error} lead="Could not follow the drill:" />
          ) : !run.status ? (
            <Spinner label="Starting the drill…" />
          ) : active ? (
            <p>
              Drill {stateLabel(run.status.state).toLowerCase()}
              {run.status.progress?.message ? `: ${run.status.progress.message}` : '…'}
            </p>
          ) : run.result ? (
            <p className="drill-words" data-outcome={run.result.backups[0]?.outcome}>
              {drillOutcomeWords(
                run.result.backups.find((b) => b.backupId === manifest.backupId) ??
                  run.result.backups[0]!,
              )}
            </p>
          ) : run.status.state === StoreOperationState.SUCCEEDED ? (
            <Spinner label="Reading the drill's result…" />
          ) : (
            <p>
              Drill {stateLabel(run.status.state).toLowerCase()}
              {run.status.error?.message ? `: ${run.status.error.message}` : '.'}
            </p>
          )}
        </div>
      )}
      <h3 className="panel__subtitle">Drills of this backup</h3>
      {history.isPending ? (
        <Spinner label="Loading the drills…" />
      ) : history.error ? (
        <ErrorText error={history.error} lead="Could not load the drills:" />
      ) : (
        <DrillHistoryTable
          drills={own}
          caption={`Drills of ${manifest.name || manifest.backupId}`}
          captionHidden
        />
      )}
    </section>
  );
}
