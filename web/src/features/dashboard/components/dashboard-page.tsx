import { useMemo } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { HISTORY_WINDOW_MS, overdueScope, RECENT_WINDOW_MS } from '../api/attention';
import { useBackupHistory, useUnhealthyBackups } from '../hooks/use-backup-attention';
import { useNow } from '../hooks/use-now';
import { useRecentOperations } from '../hooks/use-recent-operations';
import { useScopeStatuses, useTreesOverview } from '../hooks/use-tree-attention';
import { BackupBytesChart } from './backup-bytes-chart';
import { BackupHealthSection } from './backup-health-section';
import { FailedOperationsSection, RunningOperationsSection } from './operation-sections';
import { OperationDurationsChart } from './operation-durations-chart';
import { DeadLetterTreesSection, OverdueScopesSection } from './tree-sections';

/** /: what needs attention in the active tenant first, then how backups and operations trend. */
export function DashboardPage() {
  const tenant = useActiveTenant();
  const now = useNow();
  const operations = useRecentOperations(now);
  const unhealthy = useUnhealthyBackups();
  const history = useBackupHistory(now);
  const trees = useTreesOverview();
  const treeList = useMemo(() => trees.data?.trees ?? [], [trees.data]);
  const treeIds = useMemo(() => treeList.map((tree) => tree.treeId), [treeList]);
  const scopes = useScopeStatuses(treeIds);
  const overdue = scopes.statuses.flatMap((status) => {
    const late = overdueScope(status, now);
    return late ? [late] : [];
  });

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={
          <>
            What needs attention in tenant <strong>{tenant}</strong>, most urgent first.
          </>
        }
      />
      <div className="dash-grid">
        <FailedOperationsSection operations={operations} />
        <BackupHealthSection unhealthy={unhealthy} />
        <OverdueScopesSection
          overdue={overdue}
          checkedTrees={treeIds.length - scopes.skipped}
          skipped={scopes.skipped}
          isPending={trees.isPending || scopes.isPending}
          error={trees.error ?? scopes.error}
        />
        <DeadLetterTreesSection
          trees={treeList}
          isPending={trees.isPending}
          error={trees.error}
          onRetry={() => void trees.refetch()}
        />
        <RunningOperationsSection operations={operations} />
      </div>

      <section className="panel" aria-labelledby="dash-durations">
        <h2 id="dash-durations" className="panel__title">
          Operation durations, last 24 hours
        </h2>
        {operations.isPending ? (
          <Spinner label="Loading operations…" />
        ) : operations.recent.some((op) => op.finishedAt) ? (
          <OperationDurationsChart
            operations={operations.recent}
            fromMs={now - RECENT_WINDOW_MS}
            toMs={now}
          />
        ) : (
          <EmptyState title="No operation finished in the last 24 hours" />
        )}
      </section>

      <section className="panel" aria-labelledby="dash-bytes">
        <h2 id="dash-bytes" className="panel__title">
          Backup bytes per tree, last 30 days
        </h2>
        {history.error && (
          <ErrorBanner
            title="Could not load the catalog"
            error={history.error}
            onRetry={() => void history.refetch()}
          />
        )}
        {history.isPending && <Spinner label="Loading backups…" />}
        {history.data && history.data.backups.length === 0 && (
          <EmptyState title="No backup in the last 30 days">
            Start one from the <Link to={paths.backups}>Backups</Link> page, or schedule them on the{' '}
            <Link to={paths.schedules}>Schedules</Link> page.
          </EmptyState>
        )}
        {history.data && history.data.backups.length > 0 && (
          <BackupBytesChart
            backups={history.data.backups}
            fromMs={now - HISTORY_WINDOW_MS}
            toMs={now}
          />
        )}
      </section>
    </>
  );
}
