import { BackupHealthStatus, type BackupHealthReport } from '@store/contract';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { Term } from '../../../components/ui/term';
import { formatBytes, formatCount } from '../../../lib/format';
import { healthStatusWords } from '../../../lib/words';

const TONE: Record<BackupHealthStatus, BadgeTone> = {
  [BackupHealthStatus.UNSPECIFIED]: 'neutral',
  [BackupHealthStatus.HEALTHY]: 'success',
  [BackupHealthStatus.DEGRADED]: 'warning',
  [BackupHealthStatus.CORRUPT]: 'danger',
  [BackupHealthStatus.MISSING]: 'danger',
};

export function HealthStatusBadge({ status }: { status: BackupHealthStatus }) {
  return (
    <Badge tone={TONE[status]}>
      <Term term={healthStatusWords(status)} />
    </Badge>
  );
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
          Run “Check now” below, or “Verify stale backups” above for every backup like it.
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
              {formatCount(report.artifactsChecked)}{' '}
              {report.artifactsChecked === 1 ? 'artifact' : 'artifacts'},{' '}
              {formatBytes(report.bytesVerified)}
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
