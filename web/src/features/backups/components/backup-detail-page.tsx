import { StoreBackupApiOperation, type BackupManifest, type backupV1 } from '@store/contract';
import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { Breadcrumb } from '../../../components/ui/breadcrumb';
import { CopyableId } from '../../../components/ui/copyable-id';
import { EmptyState } from '../../../components/ui/empty-state';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { PageHeader } from '../../../components/ui/page-header';
import { Spinner } from '../../../components/ui/spinner';
import { useBackupCapabilities } from '../../../lib/capabilities/use-backup-capabilities';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { emptyCaptureDraft } from '../utils/capture-draft';
import { useDescribeBackupQuery } from '../../../lib/backups/use-describe-backup-query';
import { treeIds, useListTreesQuery } from '../../../lib/trees/use-list-trees-query';
import { useVerifyBackupMutation } from '../api/use-verify-backup-mutation';
import { ArtifactsPanel } from './artifacts-panel';
import { BackupChain } from './backup-chain';
import { DeleteBackupDialog } from './delete-backup-dialog';
import { useDeleteGuard } from '../hooks/use-delete-guard';
import { ManifestFacts } from './manifest-facts';
import { ProtectionPanel } from './protection-panel';
import { RestoreDialog } from './restore-dialog';
import { StartBackupDialog } from './start-backup-dialog';

/** /backups/:backupId — one backup: manifest, chain, set members, artifacts and its actions. */
export function BackupDetailPage({
  drillsPanel,
}: {
  /** The backup's restore drills (the drills feature's, passed in by the app). */
  drillsPanel?: (manifest: BackupManifest) => ReactNode;
} = {}) {
  const { backupId = '' } = useParams();
  const tenant = useActiveTenant();
  const query = useDescribeBackupQuery(backupId);

  if (query.isPending) return <Spinner label="Loading the backup…" />;
  if (query.isError) {
    return (
      <>
        <PageHeader title="Backup" />
        <ErrorBanner
          title={`Could not load backup ${backupId}`}
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      </>
    );
  }
  if (!query.data?.manifest) {
    return (
      <>
        <PageHeader title="Backup not found" />
        <EmptyState
          title={`No backup ${backupId} in tenant ${tenant}`}
          action={<Link to={paths.backups}>All backups</Link>}
        >
          The id is unknown, the backup was deleted, or it belongs to another tenant.
        </EmptyState>
      </>
    );
  }
  return <BackupDetail described={query.data} drillsPanel={drillsPanel} />;
}

type Dialog = 'incremental' | 'restore' | 'delete' | null;

function BackupDetail({
  described,
  drillsPanel,
}: {
  described: backupV1.BackupChainResponse;
  drillsPanel: ((manifest: BackupManifest) => ReactNode) | undefined;
}) {
  const manifest = described.manifest!;
  const caps = useBackupCapabilities(manifest.treeId);
  const trees = useListTreesQuery({ select: treeIds });
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const verify = useVerifyBackupMutation();
  const deleteGuard = useDeleteGuard(
    caps.guard(StoreBackupApiOperation.DELETE_BACKUP),
    manifest.backupId,
    described.dependantBackupIds,
  );

  return (
    <>
      <Breadcrumb
        section="Backups"
        to={paths.backups}
        current={manifest.name || manifest.backupId}
      />
      <PageHeader
        title={manifest.name || manifest.backupId}
        description={<CopyableId id={manifest.backupId} label="backup id" />}
        actions={
          <>
            <GuardedButton
              {...caps.guard(StoreBackupApiOperation.START_INCREMENTAL_BACKUP)}
              onClick={() => setDialog('incremental')}
            >
              Start incremental
            </GuardedButton>
            <GuardedButton
              {...caps.guard(StoreBackupApiOperation.START_BACKUP_HEALTH_CHECK)}
              busy={verify.isPending}
              onClick={() => verify.mutate(manifest.backupId)}
            >
              Verify now
            </GuardedButton>
            <GuardedButton
              variant="primary"
              {...caps.guard(StoreBackupApiOperation.START_RESTORE)}
              onClick={() => setDialog('restore')}
            >
              Restore
            </GuardedButton>
            <GuardedButton
              variant="danger"
              {...deleteGuard.guard}
              onClick={() => setDialog('delete')}
            >
              Delete
            </GuardedButton>
          </>
        }
      />
      <section className="panel" aria-labelledby="backup-manifest">
        <h2 id="backup-manifest" className="panel__title">
          Manifest
        </h2>
        <ManifestFacts manifest={manifest} />
      </section>
      <ProtectionPanel manifest={manifest} />
      {drillsPanel?.(manifest)}
      <BackupChain described={described} />
      <ArtifactsPanel manifest={manifest} caps={caps} />
      <StartBackupDialog
        open={dialog === 'incremental'}
        initial={{
          ...emptyCaptureDraft('incremental', manifest.treeId),
          keyPrefix: manifest.keyPrefix ?? '',
          baseBackupId: manifest.backupId,
        }}
        trees={trees.data ?? [manifest.treeId]}
        onClose={close}
      />
      <RestoreDialog
        open={dialog === 'restore'}
        manifest={manifest}
        coldAllowed={caps.can(StoreBackupApiOperation.START_COLD_RESTORE)}
        onClose={close}
      />
      <DeleteBackupDialog
        open={dialog === 'delete'}
        backupId={manifest.backupId}
        name={manifest.name}
        dependants={described.dependantBackupIds}
        protectedDependant={deleteGuard.protectedDependant}
        onClose={close}
      />
    </>
  );
}
