import { durationToMs, StoreBackupApiOperation } from '@store/contract';
import { useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useBackupCapabilities } from '../../../lib/capabilities/use-backup-capabilities';
import { useActiveTenant } from '../../../lib/services';
import { useScopeStatusQuery } from '../hooks/use-scope-status-query';
import { ScheduleCard } from './schedule-card';
import { ScopeStatusPanel } from './scope-status-panel';
import { TreePicker } from './tree-picker';

/** /schedules?tree=… — a tree's scope status and its full and incremental schedules. */
export function SchedulesPage() {
  const tenant = useActiveTenant();
  const [params, setParams] = useSearchParams();
  const treeId = params.get('tree') ?? '';
  const selectTree = (next: string) =>
    setParams(next === '' ? {} : { tree: next }, { replace: true });

  return (
    <>
      <PageHeader
        title="Schedules"
        description={
          <>
            Recurring full and incremental backups per tree in tenant <strong>{tenant}</strong>.
          </>
        }
      />
      <TreePicker value={treeId} onChange={selectTree} />
      {treeId === '' ? (
        <EmptyState title="Choose a tree">
          Its schedules, last runs and outcomes appear here.
        </EmptyState>
      ) : (
        <TreeSchedules key={treeId} treeId={treeId} />
      )}
    </>
  );
}

function TreeSchedules({ treeId }: { treeId: string }) {
  const tenant = useActiveTenant();
  const status = useScopeStatusQuery(treeId);
  const capabilities = useBackupCapabilities(treeId);

  if (status.isPending) return <Spinner label="Loading the scope status…" />;
  if (status.isError) {
    return (
      <ErrorBanner
        title={`Could not load the status of ${treeId}`}
        error={status.error}
        onRetry={() => void status.refetch()}
      />
    );
  }
  if (status.data === null) {
    return (
      <EmptyState title={`Unknown tree ${treeId}`}>
        Tenant {tenant} has no tree named {treeId}. Choose another tree.
      </EmptyState>
    );
  }

  const data = status.data;
  const canSchedule = capabilities.can(StoreBackupApiOperation.SCHEDULE_BACKUP);
  return (
    <div className="stack">
      <ScopeStatusPanel status={data} />
      <div className="schedule-cards">
        <ScheduleCard
          treeId={treeId}
          incremental={false}
          registeredMs={
            data.fullScheduleRegistered ? durationToMs(data.runtimeFullBackupInterval) : null
          }
          capabilities={capabilities}
        />
        <ScheduleCard
          treeId={treeId}
          incremental
          registeredMs={
            data.incrementalScheduleRegistered
              ? durationToMs(data.runtimeIncrementalBackupInterval)
              : null
          }
          capabilities={capabilities}
        />
      </div>
      {!capabilities.isLoading && !canSchedule && (
        <p className="muted">Registering schedules needs the operator role in tenant {tenant}.</p>
      )}
    </div>
  );
}
