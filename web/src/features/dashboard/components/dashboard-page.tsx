import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { HISTORY_WINDOW_MS, RECENT_WINDOW_MS } from '../utils/attention';
import { verificationCoverage } from '../utils/glance';
import {
  useListBackupHistoryQuery,
  useListUnhealthyBackupsQuery,
} from '../api/use-backup-attention';
import { useGetCatalogSummaryQuery } from '../api/use-get-catalog-summary-query';
import { useNow } from '../../../lib/use-now';
import { useListRecentOperationsQuery } from '../api/use-list-recent-operations-query';
import { SLOW_POLL_MS } from '../../../lib/polling';
import { useListTreesQuery } from '../../../lib/trees/use-list-trees-query';
import { AlertsSection } from './alerts-section';
import { BackupBytesChart } from './backup-bytes-chart';
import { BackupHealthSection } from './backup-health-section';
import { CatalogGrowthSection } from './catalog-growth-section';
import { GlanceRow } from './glance-row';
import { ProofSection } from './proof-section';
import { FailedOperationsSection, RunningOperationsSection } from './operation-sections';
import { OperationDurationsChart } from './operation-durations-chart';
import { UnprotectedTreesSection, VerificationSection } from './protection-sections';
import { DeadLetterTreesSection } from './tree-sections';

/**
 * /: the tenant's totals at a glance, what needs attention most urgent first, then how backups
 * and operations trend.
 */
export function DashboardPage() {
  const tenant = useActiveTenant();
  const now = useNow();
  const operations = useListRecentOperationsQuery(now);
  const unhealthy = useListUnhealthyBackupsQuery();
  const history = useListBackupHistoryQuery(now);
  const trees = useListTreesQuery({ refetchInterval: SLOW_POLL_MS });
  const treeList = trees.data?.trees ?? [];
  const summary = useGetCatalogSummaryQuery();
  const summaryProps = {
    summary: summary.data,
    isPending: summary.isPending,
    error: summary.error,
    onRetry: () => void summary.refetch(),
  };

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
      <GlanceRow {...summaryProps} />
      <div className="dash-grid">
        <AlertsSection />
        <FailedOperationsSection operations={operations} />
        <BackupHealthSection
          unhealthy={unhealthy}
          coverage={summary.data && verificationCoverage(summary.data)}
        />
        <UnprotectedTreesSection {...summaryProps} />
        <VerificationSection {...summaryProps} />
        <ProofSection now={now} />
        <DeadLetterTreesSection
          trees={treeList}
          isPending={trees.isPending}
          error={trees.error}
          onRetry={() => void trees.refetch()}
        />
        <RunningOperationsSection operations={operations} />
      </div>

      <CatalogGrowthSection {...summaryProps} />

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
