import type { StoreOperationStatus } from '@store/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { isActiveState } from '../../lib/operations/operation-kinds';
import { paths } from '../../lib/paths';
import { SubjectName } from '../identity/subject-name';
import { Time } from '../ui/time';
import { OperationErrorNotice } from './operation-error-notice';
import { OperationProgress } from './operation-progress';
import { OperationStateBadge } from './operation-state-badge';

/**
 * One run of an operation as a page shows its latest run: state, live progress while it runs,
 * when it started and finished, its error, a link to its detail page. The result is the page's
 * own (children), since only the page knows how to read it.
 */
export function OperationRunSummary({
  operation,
  children,
}: {
  operation: StoreOperationStatus;
  children?: ReactNode;
}) {
  const active = isActiveState(operation.state);
  return (
    <div className="stack">
      <p>
        <OperationStateBadge
          state={operation.state}
          cancelRequested={operation.cancelRequested}
          operation={operation}
        />{' '}
        <Link to={paths.operation(operation.operationId)}>
          Operation <span className="mono">{operation.operationId}</span>
        </Link>
      </p>
      {active && <OperationProgress operation={operation} />}
      <dl className="facts">
        <dt>Started</dt>
        <dd>
          <Time value={operation.startedAt ?? operation.createdAt} />
        </dd>
        <dt>Finished</dt>
        <dd>
          <Time value={operation.finishedAt} fallback={active ? 'Still running' : '—'} />
        </dd>
        {operation.createdBy && (
          <>
            <dt>Started by</dt>
            <dd>
              <SubjectName subject={operation.createdBy} />
            </dd>
          </>
        )}
      </dl>
      <OperationErrorNotice operation={operation} />
      {children}
    </div>
  );
}
