import { Link, useParams } from 'react-router';
import { RunAgainButton } from './run-again-button';
import { OperationErrorNotice } from '../../../components/operations/operation-error-notice';
import { OperationProgress } from '../../../components/operations/operation-progress';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { SubjectName } from '../../../components/identity/subject-name';
import { OperationTarget } from '../../../components/operations/operation-target';
import { Breadcrumb } from '../../../components/ui/breadcrumb';
import { CopyableId } from '../../../components/ui/copyable-id';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorText } from '../../../components/ui/error-text';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { isCancellation } from '../../../lib/errors';
import { isActiveState, kindLabel } from '../../../lib/operations/operation-kinds';
import { paths } from '../../../lib/paths';
import { useActiveTenant, useConnectivity } from '../../../lib/services';
import { useGetOperationQuery } from '../api/use-get-operation-query';
import { CancelOperationButton } from './cancel-operation-button';
import { OperationResult } from './operation-result';
import { OperationTimings } from './operation-timings';

/** /operations/:operationId — one operation, live until it is terminal. */
export function OperationDetailPage() {
  const { operationId = '' } = useParams();
  const tenant = useActiveTenant();
  const query = useGetOperationQuery(operationId);
  const unreachable = useConnectivity().unreachableSince !== null;

  if (query.isPending) return <Spinner label="Loading the operation…" />;
  if (query.isError) {
    return (
      <>
        <PageHeader title="Operation" />
        <ErrorBanner
          title={`Could not load operation ${operationId}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  }
  if (!query.data) {
    return (
      <>
        <PageHeader title="Operation not found" />
        <EmptyState
          title={`No operation ${operationId} in tenant ${tenant}`}
          action={<Link to={paths.operations}>All operations</Link>}
        >
          The id is unknown, or the operation belongs to another tenant.
        </EmptyState>
      </>
    );
  }

  const operation = query.data.status;
  const active = isActiveState(operation.state);
  return (
    <>
      <Breadcrumb
        section="Operations"
        to={paths.operations}
        current={`${kindLabel(operation.kind)} operation`}
      />
      <PageHeader
        title={`${kindLabel(operation.kind)} operation`}
        description={<CopyableId id={operation.operationId} label="operation id" />}
        actions={<CancelOperationButton operation={operation} />}
      />
      <section className="panel" aria-labelledby="op-status">
        <h2 id="op-status" className="panel__title">
          Status{' '}
          <OperationStateBadge
            state={operation.state}
            cancelRequested={operation.cancelRequested}
            operation={operation}
          />
        </h2>
        <dl className="facts">
          <dt>Target</dt>
          <dd>
            <OperationTarget operation={operation} />
          </dd>
          <dt>Started by</dt>
          <dd>
            <SubjectName subject={operation.createdBy} />
          </dd>
          <dt>Tenant</dt>
          <dd>{tenant}</dd>
        </dl>
        {(active || operation.progress) && <OperationProgress operation={operation} />}
        {active && (
          <p className="muted">
            {unreachable
              ? 'Not updating while the server cannot be reached: this is how it last was.'
              : 'Updating every second until it finishes.'}
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="op-timings">
        <h2 id="op-timings" className="panel__title">
          Timings
        </h2>
        <OperationTimings operation={operation} />
      </section>
      {operation.error && isCancellation(operation.error) && (
        <section className="panel" aria-labelledby="op-error">
          <h2 id="op-error" className="panel__title">
            Cancelled
          </h2>
          <OperationErrorNotice operation={operation} />
        </section>
      )}
      {operation.error && !isCancellation(operation.error) && (
        <section className="panel panel--danger" aria-labelledby="op-error">
          <h2 id="op-error" className="panel__title">
            What went wrong
          </h2>
          <ErrorText operationError={operation.error} />
          <RunAgainButton operation={operation} />
        </section>
      )}
      <section className="panel" aria-labelledby="op-result">
        <h2 id="op-result" className="panel__title">
          Result
        </h2>
        <OperationResult operation={operation} />
      </section>
    </>
  );
}
