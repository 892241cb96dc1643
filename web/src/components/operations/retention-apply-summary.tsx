import { BackupHealthStatus, type StoreRetentionApplyResult } from '@store/contract';
import { Link } from 'react-router';
import { CopyableId } from '../ui/copyable-id';
import { Time } from '../ui/time';
import { formatBytes, formatCount } from '../../lib/format';
import { paths } from '../../lib/paths';
import { counted } from '../../lib/words';

const DAMAGE_WORDS: Partial<Record<BackupHealthStatus, string>> = {
  [BackupHealthStatus.CORRUPT]: 'corrupt',
  [BackupHealthStatus.MISSING]: 'files missing',
  [BackupHealthStatus.DEGRADED]: 'degraded',
};

/** "after the scheduled full capture “nightly 21:00”": what an automatic apply followed. */
function scheduledCaptureWords(result: StoreRetentionApplyResult): string {
  const capture = result.scheduledCapture;
  if (!capture) return 'after a scheduled capture';
  return `after the scheduled ${capture.incremental ? 'incremental' : 'full'} capture “${capture.backupName}”`;
}

/** "Deleted 3 backups, 1.2 MiB freed; 5 kept": a retention apply in one line. */
export function retentionApplyBrief(result: StoreRetentionApplyResult): string {
  if (result.stoppedReason !== '') return result.stoppedReason;
  return `Deleted ${counted(result.deletedCount, 'backup')}, ${formatBytes(result.bytesFreed)} freed; ${formatCount(result.keptCount)} kept`;
}

/**
 * What a retention apply did: its scope, how it was started, what it deleted (by name: the
 * backups are gone from the catalog, so names cannot be looked up afterwards) and what stayed.
 */
export function RetentionApplySummary({ result }: { result: StoreRetentionApplyResult }) {
  const tree = result.scope?.treeId ?? '';
  const listed = result.deleted.length;
  const damaged = result.keptDamaged.length;
  return (
    <dl className="facts" data-testid="retention-apply-summary">
      <dt>Scope</dt>
      <dd>
        <Link to={paths.tree(tree)}>{tree}</Link>
        {result.scope?.keyPrefix && (
          <>
            , prefix <span className="mono">{result.scope.keyPrefix}</span>
          </>
        )}{' '}
        <span className="muted">
          {result.afterScheduledCapture
            ? `(run by itself ${scheduledCaptureWords(result)})`
            : '(applied from a preview)'}
        </span>{' '}
        <Link to={paths.retention(tree, result.scope?.keyPrefix ?? '')}>Retention rules</Link>
      </dd>
      {result.stoppedReason !== '' && (
        <>
          <dt>Stopped</dt>
          <dd data-testid="retention-stopped-reason">
            <strong>{result.stoppedReason}</strong>
          </dd>
        </>
      )}
      <dt>Deleted</dt>
      <dd>
        {counted(result.deletedCount, 'backup')}, {formatBytes(result.bytesFreed)} freed
      </dd>
      <dt>Kept</dt>
      <dd>{counted(result.keptCount, 'backup')}</dd>
      {result.deletedElsewhereCount > 0n && (
        <>
          <dt>Deleted elsewhere</dt>
          <dd>
            {result.deletedElsewhereCount === 1n
              ? '1 planned backup was'
              : `${formatCount(result.deletedElsewhereCount)} planned backups were`}{' '}
            deleted by another apply of the same scope running at the same time
          </dd>
        </>
      )}
      {listed > 0 && (
        <>
          <dt>
            {BigInt(listed) < result.deletedCount
              ? `First ${formatCount(listed)} deleted`
              : 'Deleted backups'}
          </dt>
          <dd>
            <ul className="plain-list">
              {result.deleted.map((backup) => (
                <li key={backup.backupId}>
                  {backup.name || <span className="muted">(no name)</span>}{' '}
                  <span className="muted">
                    {formatBytes(backup.byteSize)},{' '}
                    {backup.healthStatus === BackupHealthStatus.HEALTHY
                      ? 'verified healthy'
                      : 'never verified'}
                  </span>{' '}
                  <CopyableId id={backup.backupId} label="backup id" />
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {result.keptDamagedCount > 0n && (
        <>
          <dt>Kept damaged</dt>
          <dd data-testid="retention-kept-damaged">
            {counted(result.keptDamagedCount, 'backup')} found damaged by a health check: never
            counted by a rule nor deleted by one, kept until deleted by hand
            {damaged > 0 && (
              <ul className="plain-list">
                {result.keptDamaged.map((backup) => (
                  <li key={backup.backupId}>
                    {backup.name || <span className="muted">(no name)</span>}{' '}
                    <span className="muted">
                      {DAMAGE_WORDS[backup.healthStatus] ?? 'damaged'} since{' '}
                      <Time value={backup.damagedSince} compact />
                    </span>{' '}
                    <CopyableId id={backup.backupId} label="backup id" />
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </>
      )}
    </dl>
  );
}
