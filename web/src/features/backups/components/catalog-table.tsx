import {
  BackupKind,
  type BackupManifest,
  type BackupProof,
  type BackupProtection,
} from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Time } from '../../../components/ui/time';
import { ProofBadge } from '../../../lib/drills/proof-badge';
import { formatBytes, formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { HealthBadge } from './health-badge';
import { LockBadge } from './lock-badge';

/**
 * One page of the catalog. Its own table rather than the shared one: each row carries
 * data-testid="backup-row", which the time-to-first-row benchmark waits for.
 */
export function CatalogTable({
  backups,
  selected,
  onToggle,
  protections,
  proofs,
  now = Date.now(),
}: {
  backups: readonly BackupManifest[];
  /** The page's protections by backup id (one ListBackupProtections call per page). */
  protections?: ReadonlyMap<string, BackupProtection> | undefined;
  /** The page's restore proofs by backup id (one GetBackupProofs call per page). */
  proofs?: ReadonlyMap<string, BackupProof> | undefined;
  /** For the proofs' ages. */
  now?: number;
  /** Backups ticked to compare (select two → compare). */
  selected?: readonly string[];
  onToggle?: (backup: BackupManifest) => void;
}) {
  return (
    <div className="table-wrap">
      <table className="table table--stack">
        <caption className="visually-hidden">Backups, newest first</caption>
        <thead>
          <tr>
            {onToggle && (
              <th scope="col">
                <span className="visually-hidden">Compare</span>
              </th>
            )}
            <th scope="col">Backup</th>
            {/* Tree and kind share a column so the catalog fits beside the docked tray. */}
            <th scope="col">Tree and kind</th>
            <th scope="col">Created</th>
            <th scope="col" className="num">
              Entries
            </th>
            <th scope="col" className="num">
              Size
            </th>
            <th scope="col">Verified and proven</th>
          </tr>
        </thead>
        <tbody>
          {backups.map((backup) => (
            <tr key={backup.backupId} data-testid="backup-row">
              {onToggle && (
                <td data-label="Compare">
                  <input
                    type="checkbox"
                    aria-label={`Compare ${backup.name || backup.backupId}`}
                    checked={selected?.includes(backup.backupId) ?? false}
                    onChange={() => onToggle(backup)}
                  />
                </td>
              )}
              <td data-label="Backup">
                <div className="table__value">
                  <Link
                    className="truncate"
                    to={paths.backup(backup.backupId)}
                    title={backup.name || backup.backupId}
                  >
                    {backup.name || backup.backupId}
                  </Link>
                  <div className="muted mono bk-small">{backup.backupId}</div>
                  {protections?.has(backup.backupId) && (
                    <LockBadge protection={protections.get(backup.backupId)!} />
                  )}
                </div>
              </td>
              <td data-label="Tree and kind">
                <div className="table__value">
                  <span className="truncate" title={backup.treeId}>
                    {backup.treeId}
                  </span>
                  {backup.keyPrefix && <span className="muted mono"> {backup.keyPrefix}*</span>}
                  <div>
                    <KindBadge kind={backup.kind} />
                  </div>
                  {backup.setId && (
                    // The set's 40-character id made this column five lines tall: a link to
                    // the set's members says the same, the id in its title.
                    <div className="bk-small">
                      <Link
                        to={`${paths.backups}?set=${encodeURIComponent(backup.setId)}`}
                        title={`Backup set ${backup.setId}`}
                      >
                        Set member
                        <span className="visually-hidden">
                          {' '}
                          of {backup.name || backup.backupId}: show the whole set
                        </span>
                      </Link>
                    </div>
                  )}
                </div>
              </td>
              <td data-label="Created">
                <Time value={backup.createdAt} compact />
              </td>
              <td className="num" data-label="Entries">
                {formatCount(backup.entryCount)}
              </td>
              <td className="num" data-label="Size">
                {formatBytes(backup.byteSize)}
              </td>
              <td data-label="Verified and proven">
                <div className="table__value">
                  <HealthBadge manifest={backup} />
                  {proofs && (
                    <div className="bk-small">
                      <ProofBadge proof={proofs.get(backup.backupId) ?? {}} now={now} />
                    </div>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function KindBadge({ kind }: { kind: BackupKind }) {
  return kind === BackupKind.INCREMENTAL ? (
    <Badge tone="info">Incremental</Badge>
  ) : (
    <Badge>Full</Badge>
  );
}
