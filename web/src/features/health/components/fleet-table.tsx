import { timestampMs } from '@bufbuild/protobuf/wkt';
import { BackupHealthStatus, type BackupManifest } from '@store/contract';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { healthStatusWords } from '../../../lib/words';
import {
  ageOf,
  DEFAULT_FLEET_SORT,
  nextSort,
  sortFleet,
  type FleetSort,
  type FleetSortKey,
} from '../utils/fleet-rows';
import { counted } from '../../../lib/words/counted';

const TONE: Record<BackupHealthStatus, BadgeTone> = {
  [BackupHealthStatus.UNSPECIFIED]: 'neutral',
  [BackupHealthStatus.HEALTHY]: 'success',
  [BackupHealthStatus.DEGRADED]: 'warning',
  [BackupHealthStatus.CORRUPT]: 'danger',
  [BackupHealthStatus.MISSING]: 'danger',
};

const COLUMNS: readonly { key: FleetSortKey; label: string }[] = [
  { key: 'verdict', label: 'Last verdict' },
  { key: 'verified', label: 'Last verified' },
  { key: 'backup', label: 'Backup' },
  { key: 'tree', label: 'Tree' },
];

const SORT_NAMES: Record<FleetSortKey, string> = {
  verdict: 'verdict, worst first',
  verified: 'last verified, longest ago first',
  backup: 'backup name',
  tree: 'tree',
  created: 'creation',
};

/**
 * Every backup's last verdict and its age in one sortable table (worst first by default). A
 * never verified backup says so once, in the verdict column.
 */
export function FleetTable({ backups, now }: { backups: readonly BackupManifest[]; now: number }) {
  const [sort, setSort] = useState<FleetSort>(DEFAULT_FLEET_SORT);
  const rows = useMemo(() => sortFleet(backups, sort), [backups, sort]);
  const ariaSort = (key: FleetSortKey) => (sort.key === key ? sort.direction : undefined);

  return (
    <div className="table-wrap">
      <table className="table table--stack fleet-table">
        <caption className="visually-hidden">
          Every backup's last health verdict, sorted by {SORT_NAMES[sort.key]}
          {sort.direction === 'descending' ? ', reversed' : ''}
        </caption>
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column.key} scope="col" aria-sort={ariaSort(column.key)}>
                <button
                  type="button"
                  className="sort-button"
                  onClick={() => setSort(nextSort(sort, column.key))}
                >
                  {column.label}
                  <span aria-hidden="true" className="sort-button__arrow">
                    {sort.key === column.key ? (sort.direction === 'ascending' ? '▲' : '▼') : ''}
                  </span>
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((backup) => {
            const verdict = healthStatusWords(backup.lastHealthStatus);
            return (
              <tr key={backup.backupId} data-backup={backup.backupId}>
                <td data-label="Last verdict">
                  <Badge tone={TONE[backup.lastHealthStatus]}>
                    <Term term={verdict} />
                  </Badge>
                </td>
                <td data-label="Last verified">
                  {backup.lastVerifiedAt ? (
                    <span title={new Date(timestampMs(backup.lastVerifiedAt)).toISOString()}>
                      {ageOf(timestampMs(backup.lastVerifiedAt), now)}
                    </span>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
                <td data-label="Backup">
                  <Link
                    to={`?backup=${encodeURIComponent(backup.backupId)}`}
                    className="truncate"
                    title={backup.name || backup.backupId}
                  >
                    {backup.name || backup.backupId}
                  </Link>
                  <span className="mono muted table__sub">
                    <Time value={backup.createdAt} />
                  </span>
                </td>
                <td data-label="Tree">
                  <span className="truncate" title={backup.treeId}>
                    {backup.treeId}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted fleet-table__count">{counted(rows.length, 'backup')}</p>
    </div>
  );
}
