import { StoreOperationState } from '@store/contract';
import type { ReactNode } from 'react';
import { OperationProgress } from '../operations/operation-progress';
import { OperationStateBadge } from '../operations/operation-state-badge';
import { Button } from '../ui/button';
import { ErrorBanner } from '../ui/error-banner';
import { Spinner } from '../ui/spinner';
import { isActiveState } from '../../lib/operations/operation-kinds';
import {
  useBackupComparisonQuery,
  useCancelInsightOperationMutation,
  useInsightOperationQuery,
} from '../../lib/comparisons/use-backup-comparison';
import { ComparisonCounts, type ChangeLabels } from './comparison-counts';
import { DifferenceStorageNote } from './difference-storage-note';
import { DifferencesList } from './differences-list';

export interface ComparisonViewProps {
  operationId: string;
  /** "Restore preview" or "Backup diff": names the counts and messages. */
  title: string;
  /** What "before" and "after" mean here, shown above the differences. */
  legend: ReactNode;
  /** What added / changed / removed keys are called here (default: those words). */
  changeLabels?: ChangeLabels;
}

/**
 * A preview's or diff's run: its progress (with cancel) while it runs, then the counts first and
 * the differences below them once it succeeded; a failure shows its gRPC code and message.
 */
export function ComparisonView({ operationId, title, legend, changeLabels }: ComparisonViewProps) {
  const operation = useInsightOperationQuery(operationId);
  const status = operation.data;
  const succeeded = status?.state === StoreOperationState.SUCCEEDED;
  const comparison = useBackupComparisonQuery(operationId, succeeded);
  const cancel = useCancelInsightOperationMutation();

  if (operation.error) {
    return (
      <ErrorBanner title={`Could not follow the ${title.toLowerCase()}`} error={operation.error} />
    );
  }
  if (!status) return <Spinner label={`Starting the ${title.toLowerCase()}…`} />;
  if (isActiveState(status.state)) {
    return (
      <div className="stack" aria-label={`${title} running`}>
        <p>
          {title}{' '}
          <OperationStateBadge
            state={status.state}
            cancelRequested={status.cancelRequested}
            operation={status}
          />
        </p>
        <OperationProgress operation={status} />
        <div>
          <Button
            onClick={() => cancel.mutate(operationId)}
            busy={cancel.isPending}
            disabled={status.cancelRequested}
          >
            Cancel {title.toLowerCase()}
          </Button>
        </div>
      </div>
    );
  }
  if (status.state === StoreOperationState.FAILED) {
    return (
      <div className="error-banner" role="alert">
        <div>
          <p className="error-banner__title">The {title.toLowerCase()} failed</p>
          <p className="error-banner__detail">
            {status.error?.code}: {status.error?.message}
          </p>
        </div>
      </div>
    );
  }
  if (status.state === StoreOperationState.CANCELLED) {
    return <p className="muted">The {title.toLowerCase()} was cancelled.</p>;
  }
  if (comparison.error) {
    return (
      <ErrorBanner title={`Could not load the ${title.toLowerCase()}`} error={comparison.error} />
    );
  }
  const report = comparison.data?.report;
  if (!report) return <Spinner label={`Loading the ${title.toLowerCase()}…`} />;
  return (
    <div className="stack">
      <ComparisonCounts counts={report.counts} label={`${title} counts`} labels={changeLabels} />
      <p className="muted bk-small">
        {legend}
        {report.keyPrefix && (
          <>
            {' '}
            Keys under <span className="mono">{report.keyPrefix}</span> only.
          </>
        )}
      </p>
      <DifferenceStorageNote
        operationId={operationId}
        storage={comparison.data?.storage}
        title={title}
      />
      {!comparison.data?.storage?.expired && (
        <DifferencesList operationId={operationId} labels={changeLabels} />
      )}
    </div>
  );
}
