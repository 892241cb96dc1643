import { StoreOperationKind, StoreRestoreMode, type StoreOperationStatus } from '@store/contract';
import { Link } from 'react-router';
import { CatalogRebuildFacts } from '../../../components/operations/catalog-rebuild-facts';
import { DrillResultSummary } from '../../../components/operations/drill-result-summary';
import { RetentionApplySummary } from '../../../components/operations/retention-apply-summary';
import { StaleCheckSummary } from '../../../components/operations/stale-check-summary';
import { RestoreReverted } from '../../../components/operations/restore-reverted';
import { CopyableId } from '../../../components/ui/copyable-id';
import { useBackupNames } from '../../../lib/backups/use-backup-names';
import type { ConsoleOperation } from '../../../lib/operations/schema-insight-operations';
import { resultBrief } from '../utils/result-brief';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import {
  ComplianceSummary,
  HealthSummary,
  RemediationSummary,
  ScrubSummary,
  SetCaptureSummary,
} from './result-summaries';
import { RevertRestoreButton } from './revert-restore-button';

/**
 * What the operation produced: a link to the backup it made, the tree it restored, or a
 * readable summary of the other results.
 */
export function OperationResult({ operation }: { operation: ConsoleOperation }) {
  const result = operation.result;
  switch (result.case) {
    case 'capture':
      return (
        <dl className="facts">
          <dt>Backup</dt>
          <dd>
            <Link to={paths.backup(result.value.backupId)}>{result.value.backupId}</Link>
          </dd>
          {result.value.manifest && (
            <>
              <dt>Name</dt>
              <dd>{result.value.manifest.name || '—'}</dd>
              <dt>Entries</dt>
              <dd>{formatCount(result.value.manifest.entryCount)}</dd>
            </>
          )}
        </dl>
      );
    case 'restore': {
      const restore = result.value;
      return (
        <>
          {restore.revertedAt && (
            <p className="notice">
              <RestoreReverted operation={operation} className="" />.
            </p>
          )}
          <dl className="facts">
            <dt>Target tree</dt>
            <dd>
              <Link to={paths.tree(restore.targetTreeId)}>{restore.targetTreeId}</Link>
            </dd>
            <dt>Entries applied</dt>
            <dd>{formatCount(restore.entriesApplied)}</dd>
            <dt>From backup</dt>
            <dd>
              <BackupByName backupId={restore.backupId} />
            </dd>
            <dt>Mode</dt>
            <dd>{restoreModeLabel(restore.mode)}</dd>
            {restore.manifestChain.length > 1 && (
              <>
                <dt>Chain</dt>
                <dd className="mono">{restore.manifestChain.join(' → ')}</dd>
              </>
            )}
            {(restore.deadLetteredCrossTenant > 0n || restore.deadLetteredOverQuota > 0n) && (
              <>
                <dt>Dead-lettered</dt>
                <dd>
                  {formatCount(restore.deadLetteredCrossTenant)} cross-tenant,{' '}
                  {formatCount(restore.deadLetteredOverQuota)} over quota
                </dd>
              </>
            )}
          </dl>
          <RevertRestoreButton operation={operation} restore={restore} />
        </>
      );
    }
    case 'setCapture':
      return <SetCaptureSummary result={result.value} />;
    case 'healthReport':
      return <HealthSummary report={result.value} />;
    case 'rebuild':
      return <CatalogRebuildFacts result={result.value} />;
    case 'scrub':
      return <ScrubSummary result={result.value} />;
    case 'remediationReport':
      return <RemediationSummary report={result.value} />;
    case 'complianceReport':
      return <ComplianceSummary report={result.value} />;
    case 'staleHealthCheck':
      return <StaleCheckSummary result={result.value} />;
    case 'retentionApply':
      return <RetentionApplySummary result={result.value} />;
    default: {
      if (operation.kind === StoreOperationKind.RESTORE_DRILL) {
        return <DrillResultSummary operation={operation} />;
      }
      // Previews, diffs, dry-runs, replays: their one-line summary.
      const brief = resultBrief(operation);
      return brief ? <p>{brief}</p> : <p className="muted">{noResultText(operation)}</p>;
    }
  }
}

/** A backup by its name, linked, its id below with a copy button; the id alone until named. */
function BackupByName({ backupId }: { backupId: string }) {
  const name = useBackupNames([backupId]).get(backupId);
  return (
    <>
      <Link to={paths.backup(backupId)}>{name ?? backupId}</Link>
      {name && (
        <span className="table__sub">
          <CopyableId id={backupId} label="backup id" />
        </span>
      )}
    </>
  );
}

function noResultText(operation: StoreOperationStatus): string {
  if (operation.error) return 'No result: the operation did not succeed.';
  const backupKinds = [StoreOperationKind.BACKUP, StoreOperationKind.INCREMENTAL_BACKUP];
  return backupKinds.includes(operation.kind)
    ? 'The backup appears here when the capture completes.'
    : 'The result appears here when the operation completes.';
}

function restoreModeLabel(mode: StoreRestoreMode): string {
  switch (mode) {
    case StoreRestoreMode.NEW_TREE:
      return 'Into a new tree';
    case StoreRestoreMode.SHADOW:
      return 'Into a shadow tree (no swap)';
    default:
      // DESIGN.md §2: an unspecified restore mode means IN_PLACE.
      return 'In place (swapped atomically)';
  }
}
