import { healthStatusWords } from '../../../lib/words';
import type { BackupHealthStatus } from '@store/contract';
import {
  type BackupHealthReport,
  type StoreBackupSetCaptureResult,
  type StoreCatalogScrubResult,
  type StoreSchemaComplianceReport,
  type StoreSchemaRemediationReport,
} from '@store/contract';
import { Link } from 'react-router';
import { CopyableId } from '../../../components/ui/copyable-id';
import { useBackupNames } from '../../../lib/backups/use-backup-names';
import { formatBytes, formatCount } from '../../../lib/format';
import { stateLabel } from '../../../lib/operations/operation-kinds';
import { paths } from '../../../lib/paths';

export function SetCaptureSummary({ result }: { result: StoreBackupSetCaptureResult }) {
  return (
    <dl className="facts">
      <dt>Set</dt>
      <dd>{result.setManifest?.name || result.setManifest?.setId || '—'}</dd>
      <dt>Consistent across trees</dt>
      <dd>{result.setManifest?.crossTreeConsistent ? 'Yes' : 'No'}</dd>
      <dt>Backups</dt>
      <dd>
        <ul className="inline-list">
          {result.members.map((member) => (
            <li key={member.backupId}>
              <Link to={paths.backup(member.backupId)}>
                {member.manifest?.name || member.backupId}
              </Link>
              {member.manifest?.treeId && (
                <span className="muted"> ({member.manifest.treeId})</span>
              )}
              {member.manifest?.name && (
                <span className="table__sub">
                  <CopyableId id={member.backupId} label="backup id" />
                </span>
              )}
            </li>
          ))}
        </ul>
      </dd>
    </dl>
  );
}

export function HealthSummary({ report }: { report: BackupHealthReport }) {
  const name = useBackupNames([report.backupId]).get(report.backupId);
  return (
    <dl className="facts">
      <dt>Backup</dt>
      <dd>
        <Link to={paths.backup(report.backupId)}>{name ?? report.backupId}</Link>
        {name && (
          <span className="table__sub">
            <CopyableId id={report.backupId} label="backup id" />
          </span>
        )}
      </dd>
      <dt>Health</dt>
      <dd>{healthLabel(report.status)}</dd>
      <dt>Verified</dt>
      <dd>
        {formatCount(report.artifactsChecked)} artifacts, {formatBytes(report.bytesVerified)}
      </dd>
      <dt>Chain intact</dt>
      <dd>{report.chainIntact ? 'Yes' : 'No'}</dd>
      <dt>Issues</dt>
      <dd>
        {report.issues.length === 0
          ? 'None'
          : report.issues.map((issue) => `${issue.artifactId}: ${issue.problem}`).join('; ')}
      </dd>
    </dl>
  );
}

export function ScrubSummary({ result }: { result: StoreCatalogScrubResult }) {
  // Orphans are counted below; the rows listed here are catalog rows with damaged artifacts.
  const damaged = result.findings.filter((f) => f.problem !== 'orphan');
  return (
    <dl className="facts">
      <dt>Checked</dt>
      <dd>
        {formatCount(result.rowsChecked)} catalog rows, {formatCount(result.artifactsChecked)}{' '}
        artifacts
      </dd>
      <dt>Missing or corrupt</dt>
      <dd>
        {damaged.length === 0 ? (
          'None'
        ) : (
          <ul className="plain-list">
            {damaged.map((f) => (
              <li key={`${f.backupId}/${f.artifactId}`}>
                <Link to={paths.backup(f.backupId)}>{f.backupId}</Link>{' '}
                <span className="mono">{f.artifactId}</span>: {f.problem}
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>Orphans</dt>
      <dd>
        {formatCount(result.orphansFound)} found,{' '}
        {result.pruneOrphans ? `${formatCount(result.orphansPruned)} pruned` : 'not pruned'}
      </dd>
    </dl>
  );
}

export function RemediationSummary({ report }: { report: StoreSchemaRemediationReport }) {
  return (
    <dl className="facts">
      <dt>Tree</dt>
      <dd>
        <Link to={paths.tree(report.treeId)}>{report.treeId}</Link>
      </dd>
      <dt>Versions</dt>
      <dd>
        {report.fromVersion} → {report.toVersion}
      </dd>
      <dt>Outcome</dt>
      <dd>{stateLabel(report.state)}</dd>
      <dt>Entries</dt>
      <dd>
        {formatCount(report.scanned)} scanned: {formatCount(report.alreadyCompliant)} already
        compliant, {formatCount(report.transformed)} transformed, {formatCount(report.deadLettered)}{' '}
        dead-lettered, {formatCount(report.failed)} failed
      </dd>
    </dl>
  );
}

export function ComplianceSummary({ report }: { report: StoreSchemaComplianceReport }) {
  return (
    <dl className="facts">
      <dt>Tree</dt>
      <dd>
        <Link to={paths.tree(report.treeId)}>{report.treeId}</Link>
      </dd>
      <dt>Policy version</dt>
      <dd>{report.policyVersion}</dd>
      <dt>Entries</dt>
      <dd>
        {formatCount(report.scanned)} scanned: {formatCount(report.compliant)} compliant,{' '}
        {formatCount(report.nonCompliant)} not compliant
      </dd>
      {report.violations.length > 0 && (
        <>
          <dt>First violations</dt>
          <dd>
            <ul className="plain-list">
              {report.violations.slice(0, 10).map((v) => (
                <li key={`${v.key}${v.path}`}>
                  <span className="mono">{v.key}</span> {v.path}: {v.message}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  );
}

function healthLabel(status: BackupHealthStatus): string {
  return healthStatusWords(status).words;
}
