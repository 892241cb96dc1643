import { ErrorText } from '../../../components/ui/error-text';
import { SchemaControlService, TreeDataService } from '@store/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { OperationProgress } from '../../../components/operations/operation-progress';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { isActiveState, isTerminalState, kindLabel } from '../../../lib/operations/operation-kinds';
import { paths } from '../../../lib/paths';
import { serviceKey } from '../../../lib/query-keys';
import { useGetSchemaOperationQuery } from '../api/use-schema-operation-query';
import { RemediationReportFacts } from './remediation-report';

/** A run started from this page, followed live until it ends, with its report. */
export function RunProgress({ operationId }: { operationId: string }) {
  const query = useGetSchemaOperationQuery(operationId);
  const queryClient = useQueryClient();
  const finished = query.data ? isTerminalState(query.data.state) : false;

  useEffect(() => {
    if (!finished) return;
    // The run changed the tree: its config, reports, dead letters and the tree list are stale.
    void queryClient.invalidateQueries({ queryKey: serviceKey(SchemaControlService) });
    void queryClient.invalidateQueries({ queryKey: serviceKey(TreeDataService) });
  }, [finished, queryClient]);
  if (query.isError) {
    return <ErrorBanner title={`Could not follow operation ${operationId}`} error={query.error} />;
  }
  const operation = query.data;
  if (!operation) return null;
  const report = operation.result.case === 'remediationReport' ? operation.result.value : undefined;
  return (
    <div className="schema-run" aria-live="polite">
      <p>
        {kindLabel(operation.kind)}{' '}
        <Link to={paths.operation(operation.operationId)} className="mono">
          {operation.operationId}
        </Link>{' '}
        <OperationStateBadge
          state={operation.state}
          cancelRequested={operation.cancelRequested}
          operation={operation}
        />
      </p>
      {isActiveState(operation.state) && <OperationProgress operation={operation} />}
      {operation.error && (
        <div className="field__error">
          <ErrorText operationError={operation.error} />
        </div>
      )}
      {report && <RemediationReportFacts report={report} />}
    </div>
  );
}
