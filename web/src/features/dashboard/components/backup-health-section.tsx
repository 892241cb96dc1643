import { BackupHealthStatus, type BackupManifest } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Table, type Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { paths } from '../../../lib/paths';
import type { useUnhealthyBackups } from '../hooks/use-backup-attention';
import { DashboardSection } from './dashboard-section';

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
      <Badge tone="danger">{BackupHealthStatus[backup.lastHealthStatus] ?? 'UNKNOWN'}</Badge>
    ),
  },
  { id: 'verified', header: 'Checked', cell: (backup) => <Time value={backup.lastVerifiedAt} /> },
];

/** Backups whose latest health report found them corrupt or their artifacts missing. */
export function BackupHealthSection({
  unhealthy,
}: {
  unhealthy: ReturnType<typeof useUnhealthyBackups>;
}) {
  return (
    <DashboardSection
      title="Corrupt or missing backups"
      count={unhealthy.backups.length}
      isPending={unhealthy.isPending}
      error={unhealthy.error}
      onRetry={unhealthy.refetch}
      emptyTitle="No backup failed its last health check"
      emptyText="Backups never checked are not counted; run checks from the Health page."
      more={<Link to={paths.health}>Health of all backups</Link>}
    >
      <Table
        caption="Backups whose last health report is CORRUPT or MISSING"
        captionHidden
        columns={columns}
        rows={unhealthy.backups}
        rowKey={(backup) => backup.backupId}
      />
      {unhealthy.truncated && (
        <p className="muted">
          More unhealthy backups exist: filter the <Link to={paths.backups}>catalog</Link> by
          health.
        </p>
      )}
    </DashboardSection>
  );
}
