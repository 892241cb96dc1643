import { StoreBackupApiOperation, StoreOperationKind, StoreOperationState } from '@store/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { OperationRunSummary } from '../../../components/operations/operation-run-summary';
import { Badge } from '../../../components/ui/badge';
import { CopyableId } from '../../../components/ui/copyable-id';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useBackupNames } from '../../../lib/backups/use-backup-names';
import { useBackupCapabilities } from '../../../lib/capabilities/use-backup-capabilities';
import { useDescribeBackupQuery } from '../../../lib/backups/use-describe-backup-query';
import { useListBackupsQuery } from '../../../lib/backups/use-list-backups-query';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import { useLatestBackupOperationQuery } from '../../../lib/operations/use-latest-backup-operation-query';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { useStartHealthCheckMutation } from '../api/use-health-mutations';
import {
  storedHealthKey,
  useHealthAvailabilityQuery,
  useStoredHealthQuery,
} from '../api/use-health-queries';
import { BackupPicker } from './backup-picker';
import { HealthReportPanel } from './health-report-panel';
import { FleetSection } from './fleet-section';
import { MonitoringForm } from './monitoring-form';
import { VerifyStalePanel } from './verify-stale-panel';

/** The newest 200 backups of the tenant, for the backup picker. */
const PICKER_PAGE = { pageSize: 200 };

/**
 * /health?backup=… — monitoring availability, "verify stale backups", every backup's last verdict
 * in one sortable table, then one backup's stored report, check now and monitoring.
 */
export function HealthPage({
  proofSection,
}: {
  /** Fleet health's proof per tree (the drills feature's, passed in by the app). */
  proofSection?: ReactNode;
} = {}) {
  const tenant = useActiveTenant();
  const [params, setParams] = useSearchParams();
  const backupId = params.get('backup') ?? '';
  const availability = useHealthAvailabilityQuery();
  const backups = useListBackupsQuery(PICKER_PAGE, { select: (page) => page.backups });
  const described = useDescribeBackupQuery(backupId);

  return (
    <>
      <PageHeader
        title="Health"
        description={
          <>
            Verification of the backups of tenant <strong>{tenant}</strong>.
          </>
        }
      />
      <p>
        Health monitoring on this server:{' '}
        {availability.isPending ? (
          <Badge>Checking…</Badge>
        ) : availability.data === true ? (
          <Badge tone="success">Available</Badge>
        ) : availability.data === false ? (
          <Badge tone="warning">Not available</Badge>
        ) : (
          <Badge tone="danger">Unknown</Badge>
        )}
      </p>
      {availability.error && (
        <ErrorBanner
          title="Could not ask whether health monitoring is available"
          error={availability.error}
          onRetry={() => void availability.refetch()}
        />
      )}
      <VerifyStalePanel />
      <FleetSection />
      {proofSection}
      <h2 id="health-one-backup">One backup</h2>
      <div className="health-picker">
        <BackupPicker
          value={backupId}
          onChange={(next) => setParams(next === '' ? {} : { backup: next }, { replace: true })}
          backups={backups.data}
          isPending={backups.isPending}
          error={backups.error}
          onRetry={() => void backups.refetch()}
        />
      </div>
      {backupId === '' ? (
        <EmptyState title="Choose a backup">
          Its last health report, a check on demand and its monitoring settings appear here.
        </EmptyState>
      ) : described.isPending ? (
        <Spinner label="Loading the backup…" />
      ) : described.error ? (
        <ErrorBanner
          title={`Could not load backup ${backupId}`}
          error={described.error}
          onRetry={() => void described.refetch()}
        />
      ) : !described.data?.manifest ? (
        <EmptyState title={`Unknown backup ${backupId}`}>
          Tenant {tenant} has no backup with this id. It may have been deleted; choose another.
        </EmptyState>
      ) : (
        <BackupHealth
          key={backupId}
          backupId={backupId}
          treeId={described.data.manifest.treeId}
          monitoringAvailable={availability.data !== false}
        />
      )}
    </>
  );
}

interface BackupHealthProps {
  backupId: string;
  /** The backup's tree: capabilities are probed on it. */
  treeId: string;
  monitoringAvailable: boolean;
}

function BackupHealth({ backupId, treeId, monitoringAvailable }: BackupHealthProps) {
  const tenant = useActiveTenant();
  const queryClient = useQueryClient();
  const backupName = useBackupNames([backupId]).get(backupId);
  const stored = useStoredHealthQuery(backupId);
  const latestCheck = useLatestBackupOperationQuery(
    StoreOperationKind.BACKUP_HEALTH_CHECK,
    backupId,
  );
  const startCheck = useStartHealthCheckMutation();
  const capabilities = useBackupCapabilities(treeId);

  // A check that just finished wrote a new report: read it now, not at the next focus.
  const latest = latestCheck.data;
  const finishedId =
    latest && latest.state === StoreOperationState.SUCCEEDED ? latest.operationId : null;
  useEffect(() => {
    if (finishedId) void queryClient.invalidateQueries({ queryKey: storedHealthKey(backupId) });
  }, [finishedId, backupId, queryClient]);

  const checkRunning = !!latest && isActiveState(latest.state);
  const checkGuard = capabilities.guard(StoreBackupApiOperation.START_BACKUP_HEALTH_CHECK);
  const configureGuard = monitoringAvailable
    ? capabilities.guard(StoreBackupApiOperation.CONFIGURE_BACKUP_HEALTH)
    : { allowed: false, reason: 'This server does not offer health monitoring' };

  return (
    <div className="stack">
      <p data-testid="health-subject">
        Backup <Link to={paths.backup(backupId)}>{backupName ?? backupId}</Link> of tree {treeId}{' '}
        {backupName && <CopyableId id={backupId} label="backup id" />}
      </p>
      {stored.isPending && <Spinner label="Loading the health report…" />}
      {stored.error && (
        <ErrorBanner
          title={`Could not load the health of ${backupId}`}
          error={stored.error}
          onRetry={() => void stored.refetch()}
        />
      )}
      {stored.data && <HealthReportPanel report={stored.data.report} />}
      <section className="panel" aria-labelledby="health-check">
        <h2 id="health-check" className="panel__title">
          Check now
        </h2>
        <p className="muted">
          Reads every artifact of the backup and its chain in tenant {tenant} and verifies sizes and
          checksums. It runs as a tracked operation.
        </p>
        <div className="inline-form__actions">
          <GuardedButton
            variant="primary"
            busy={startCheck.isPending}
            allowed={checkGuard.allowed && !checkRunning}
            reason={checkRunning ? 'A check of this backup is running' : checkGuard.reason}
            onClick={() => startCheck.mutate(backupId)}
          >
            Check now
          </GuardedButton>
        </div>
        {latest && (
          <>
            <h3>Latest check</h3>
            <OperationRunSummary operation={latest} />
          </>
        )}
      </section>
      {stored.data && (
        <MonitoringForm
          backupId={backupId}
          monitoring={stored.data.monitoring}
          guard={configureGuard}
        />
      )}
    </div>
  );
}
