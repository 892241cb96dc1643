import { StoreOperationState, type StoreOperationStatus } from '@store/contract';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { drillOutcomeWords } from '../../lib/drills/proof-words';
import { useDrillResultQuery } from '../../lib/drills/use-drill-result-query';
import { paths } from '../../lib/paths';
import { ErrorText } from '../ui/error-text';
import { Spinner } from '../ui/spinner';

/**
 * A restore drill's operation: what it found per backup, in words (PROVEN with duration and
 * rate, or FAILED with the reason and first differing key). Its status carries no result of its
 * own: RestoreDrillService's GetRestoreDrillResult has it.
 */
export function DrillResultSummary({ operation }: { operation: StoreOperationStatus }) {
  const succeeded = operation.state === StoreOperationState.SUCCEEDED;
  const result = useDrillResultQuery(operation.operationId, succeeded);
  if (!succeeded) return <p className="muted">The drill's finding appears here when it ends.</p>;
  if (result.isPending) return <Spinner label="Reading the drill's result…" />;
  if (result.error) return <ErrorText error={result.error} lead="Could not read the result:" />;
  if (!result.data.available) return <p className="muted">No result was recorded.</p>;
  return (
    <dl className="facts" data-testid="drill-result">
      {result.data.backups.map((b) => (
        <Fragment key={b.backupId}>
          <dt>Backup</dt>
          <dd>
            <Link to={paths.backup(b.backupId)} className="truncate mono" title={b.backupId}>
              {b.backupId}
            </Link>
          </dd>
          <dt>Found</dt>
          <dd className="drill-words">{drillOutcomeWords(b)}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
