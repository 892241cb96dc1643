import type { BackupManifest } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Term } from '../../../components/ui/term';
import type { Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { healthStatusWords } from '../../../lib/words';
import type { verificationCoverage } from '../utils/glance';
import type { useListUnhealthyBackupsQuery } from '../api/use-backup-attention';
import { DashboardTableSection } from './dashboard-section';
import { counted } from '../../../lib/words/counted';

const columns: readonly Column<BackupManifest>[] = [
  {
    id: 'backup',
    header: 'Backup',
    cell: (backup) => (
      <Link to={paths.backup(backup.backupId)}>
        {backup.name || backup.backupId}
        <span className="mono muted table__sub">{backup.backupId}</span>
      </Link>
    ),
  },
  {
    id: 'tree',
    header: 'Tree',
    cell: (backup) => <Link to={paths.tree(backup.treeId)}>{backup.treeId}</Link>,
  },
  {
    id: 'health',
    header: 'Last health report',
    cell: (backup) => (
      <Badge tone="danger">
        <Term term={healthStatusWords(backup.lastHealthStatus)} />
      </Badge>
    ),
  },
  { id: 'verified', header: 'Checked', cell: (backup) => <Time value={backup.lastVerifiedAt} /> },
];

/**
 * Backups whose latest health report found them corrupt or their artifacts missing. A zero is
 * green only when every backup was verified recently: it says nothing of backups never checked.
 */
export function BackupHealthSection({
  unhealthy,
  coverage,
}: {
  unhealthy: ReturnType<typeof useListUnhealthyBackupsQuery>;
  coverage: ReturnType<typeof verificationCoverage> | undefined;
}) {
  const unchecked = coverage ? coverage.neverVerified + coverage.stale : 0;
  return (
    <DashboardTableSection
      title="Corrupt or missing backups"
      zeroTone={coverage?.complete ? 'success' : 'neutral'}
      isPending={unhealthy.isPending}
      error={unhealthy.error}
      onRetry={unhealthy.refetch}
      emptyTitle={
        coverage?.complete
          ? 'Every backup passed its last health check'
          : 'No checked backup is corrupt or missing'
      }
      emptyText={
        unchecked > 0 ? (
          <>
            {formatCount(unchecked)} of {counted(coverage?.backups ?? 0, 'backup')} were not
            verified recently, so this says little about them.{' '}
            <Link to={`${paths.health}#verify-stale`}>Verify stale backups</Link>
          </>
        ) : undefined
      }
      more={<Link to={paths.health}>Health of all backups</Link>}
      caption="Backups whose last health report is CORRUPT or MISSING"
      columns={columns}
      rows={unhealthy.backups}
      rowKey={(backup) => backup.backupId}
    >
      {unhealthy.truncated && (
        <p className="muted">
          More unhealthy backups exist: filter the <Link to={paths.backups}>catalog</Link> by
          health.
        </p>
      )}
    </DashboardTableSection>
  );
}
