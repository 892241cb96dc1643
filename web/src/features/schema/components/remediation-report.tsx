import type { StoreSchemaRemediationReport } from '@store/contract';
import { Link } from 'react-router';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { Time } from '../../../components/ui/time';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';

/** A remediation or migration report: what the run did to each value it read. */
export function RemediationReportFacts({ report }: { report: StoreSchemaRemediationReport }) {
  return (
    <dl className="facts">
      <dt>State</dt>
      <dd>
        <OperationStateBadge state={report.state} />
      </dd>
      <dt>Versions</dt>
      <dd>
        {report.fromVersion} → {report.toVersion}
      </dd>
      <dt>Scanned</dt>
      <dd>{formatCount(report.scanned)}</dd>
      <dt>Already compliant</dt>
      <dd>{formatCount(report.alreadyCompliant)}</dd>
      <dt>Transformed</dt>
      <dd>{formatCount(report.transformed)}</dd>
      <dt>Dead-lettered</dt>
      <dd>{formatCount(report.deadLettered)}</dd>
      <dt>Failed</dt>
      <dd>{formatCount(report.failed)}</dd>
      <dt>Started</dt>
      <dd>
        <Time value={report.startedAt} />
      </dd>
      <dt>Finished</dt>
      <dd>
        <Time value={report.finishedAt} fallback="Not finished" />
      </dd>
      {report.operationId && (
        <>
          <dt>Operation</dt>
          <dd>
            <Link to={paths.operation(report.operationId)} className="mono">
              {report.operationId}
            </Link>
          </dd>
        </>
      )}
    </dl>
  );
}
