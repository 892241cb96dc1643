import type { StoreSchemaComplianceReport } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Table } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';

/** The trees page filtered to one key (the trees feature reads ?prefix=). */
export function entryLink(treeId: string, key: string): string {
  return `${paths.tree(treeId)}?prefix=${encodeURIComponent(key)}`;
}

/** A compliance scan's counts and its first violations, each linked to its entry. */
export function ComplianceReportView({ report }: { report: StoreSchemaComplianceReport }) {
  const clean = report.nonCompliant === 0n;
  return (
    <div className="stack" role="group" aria-label="Compliance report">
      <p data-testid="compliance-verdict">
        {clean ? (
          <Badge tone="success">Compliant</Badge>
        ) : (
          <Badge tone="danger">{formatCount(report.nonCompliant)} non-compliant</Badge>
        )}{' '}
        against policy version {report.policyVersion}, scanned <Time value={report.scannedAt} />
      </p>
      <dl className="facts">
        <dt>Scanned</dt>
        <dd>{formatCount(report.scanned)}</dd>
        <dt>Compliant</dt>
        <dd>{formatCount(report.compliant)}</dd>
        <dt>Non-compliant</dt>
        <dd>{formatCount(report.nonCompliant)}</dd>
      </dl>
      {report.violations.length > 0 && (
        <Table
          caption={`First ${report.violations.length} violations`}
          columns={[
            {
              id: 'key',
              header: 'Entry',
              cell: (v) => (
                <Link to={entryLink(report.treeId, v.key)} className="mono">
                  {v.key}
                </Link>
              ),
            },
            {
              id: 'path',
              header: 'Where',
              cell: (v) => <span className="mono">{v.path || '(whole value)'}</span>,
            },
            { id: 'message', header: 'Problem', cell: (v) => v.message },
          ]}
          rows={report.violations}
          rowKey={(v) => `${v.key}\u0000${v.path}\u0000${v.message}`}
        />
      )}
    </div>
  );
}
