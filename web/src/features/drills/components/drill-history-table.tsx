import { RestoreDrillOutcome, type RestoreDrillRecord } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, type Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { durationMs, drillOutcomeWords, rateWords } from '../../../lib/drills/proof-words';
import { formatCount, formatDuration } from '../../../lib/format';
import { paths } from '../../../lib/paths';

const outcomeBadge = (d: RestoreDrillRecord) =>
  d.outcome === RestoreDrillOutcome.PROVEN ? (
    <Badge tone="success">Proven</Badge>
  ) : (
    <Badge tone="danger">Failed</Badge>
  );

function columns(showBackup: boolean): Column<RestoreDrillRecord>[] {
  return [
    { id: 'finished', header: 'Finished', cell: (d) => <Time value={d.finishedAt} compact /> },
    ...(showBackup
      ? [
          {
            id: 'backup',
            header: 'Backup',
            cell: (d: RestoreDrillRecord) => (
              <Link
                to={paths.backup(d.backupId)}
                className={d.backupName ? 'truncate' : 'truncate mono'}
                title={d.backupId}
              >
                {d.backupName || d.backupId}
              </Link>
            ),
          },
        ]
      : []),
    {
      id: 'outcome',
      header: 'Outcome',
      cell: (d) => (
        <span>
          {outcomeBadge(d)} <span className="drill-words">{drillOutcomeWords(d)}</span>
        </span>
      ),
    },
    {
      id: 'duration',
      header: 'Took',
      numeric: true,
      cell: (d) => formatDuration(durationMs(d.duration)),
    },
    {
      id: 'rate',
      header: 'Rate',
      numeric: true,
      cell: (d) => (d.outcome === RestoreDrillOutcome.PROVEN ? rateWords(d.entriesPerSecond) : '—'),
    },
    {
      id: 'entries',
      header: 'Entries',
      numeric: true,
      cell: (d) => formatCount(d.entries),
    },
    {
      id: 'op',
      header: <span className="visually-hidden">Operation</span>,
      label: 'Operation',
      cell: (d) => (
        <Link to={paths.operation(d.operationId)}>
          Details<span className="visually-hidden"> of drill {d.operationId}</span>
        </Link>
      ),
    },
  ];
}

/** Drills newest first, each with its outcome in words, duration and rate. */
export function DrillHistoryTable({
  drills,
  caption,
  showBackup = false,
  captionHidden = false,
}: {
  drills: readonly RestoreDrillRecord[];
  caption: string;
  showBackup?: boolean;
  /** When a heading above already says what the table holds. */
  captionHidden?: boolean;
}) {
  return (
    <Table
      caption={caption}
      captionHidden={captionHidden}
      columns={columns(showBackup)}
      rows={drills}
      rowKey={(d) => `${d.operationId}/${d.backupId}`}
      empty={
        <EmptyState title="No drill yet">
          A drill restores the backup into a scratch tree and proves its content.
        </EmptyState>
      }
    />
  );
}
