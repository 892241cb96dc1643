import { BackupHealthStatus, type BackupHealthReport } from '@store/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatBytes, formatCount } from '../../../lib/format';

const STATUS: Record<BackupHealthStatus, { label: string; tone: BadgeTone }> = {
  [BackupHealthStatus.UNSPECIFIED]: { label: 'Never verified', tone: 'neutral' },
  [BackupHealthStatus.HEALTHY]: { label: 'HEALTHY', tone: 'success' },
  [BackupHealthStatus.DEGRADED]: { label: 'DEGRADED', tone: 'warning' },
  [BackupHealthStatus.CORRUPT]: { label: 'CORRUPT', tone: 'danger' },
  [BackupHealthStatus.MISSING]: { label: 'MISSING', tone: 'danger' },
};

export function HealthStatusBadge({ status }: { status: BackupHealthStatus }) {
  const { label, tone } = STATUS[status];
  return <Badge tone={tone}>{label}</Badge>;
}

type Issue = BackupHealthReport['issues'][number];

const ISSUE_COLUMNS = [
  {
    id: 'artifact',
    header: 'Artifact',
    cell: (issue: Issue) => <span className="mono">{issue.artifactId || '—'}</span>,
  },
  { id: 'problem', header: 'Problem', cell: (issue: Issue) => issue.problem.replaceAll('_', ' ') },
  { id: 'detail', header: 'Detail', cell: (issue: Issue) => issue.detail || '—' },
] as const;

/** The stored report of a backup: status, what was verified, and every issue found. */
export function HealthReportPanel({ report }: { report: BackupHealthReport | null }) {
  return (
    <section className="panel" aria-labelledby="health-report">
      <h2 id="health-report" className="panel__title">
        Last report {report && <HealthStatusBadge status={report.status} />}
      </h2>
      {report === null ? (
        <EmptyState title="Never verified">
          No health check has run on this backup yet. Run one with “Check now”.
        </EmptyState>
      ) : (
        <>
          <dl className="facts">
            <dt>Checked</dt>
            <dd>
              <Time value={report.checkedAt} />
            </dd>
            <dt>Verified</dt>
            <dd>
              {formatCount(report.artifactsChecked)} artifacts, {formatBytes(report.bytesVerified)}
            </dd>
            <dt>Chain intact</dt>
            <dd>{report.chainIntact ? 'Yes' : 'No'}</dd>
            <dt>Issues</dt>
            <dd>{report.issues.length === 0 ? 'None' : formatCount(report.issues.length)}</dd>
          </dl>
          {report.issues.length > 0 && (
            <Table
              caption="Issues found"
              columns={ISSUE_COLUMNS}
              rows={report.issues}
              rowKey={(issue) => `${issue.artifactId}:${issue.problem}`}
            />
          )}
        </>
      )}
    </section>
  );
}
