import {
  KeepReasonKind,
  RetentionAction,
  type RetentionPreview,
  type RetentionPreviewEntry,
} from '@store/contract';
import { Link } from 'react-router';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, type Column } from '../../../components/ui/table';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { formatBytes, formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { counted, keepReasonPhrase } from '../../../lib/words';
import { BackupHealthCell } from './backup-health';

const nameColumn: Column<RetentionPreviewEntry> = {
  id: 'name',
  header: 'Backup',
  cell: (entry) => (
    <div className="table__value">
      <Link className="truncate" to={paths.backup(entry.backupId)} title={entry.name}>
        {entry.name || entry.backupId}
      </Link>
      {entry.setId && <div className="muted bk-small">set {entry.setId}</div>}
    </div>
  ),
};
const createdColumn: Column<RetentionPreviewEntry> = {
  id: 'created',
  header: 'Created',
  cell: (entry) => <Time value={entry.createdAt} />,
};
const sizeColumn: Column<RetentionPreviewEntry> = {
  id: 'size',
  header: 'Size',
  numeric: true,
  cell: (entry) => formatBytes(entry.byteSize),
};
const healthColumn: Column<RetentionPreviewEntry> = {
  id: 'health',
  header: 'Health',
  cell: (entry) => (
    <BackupHealthCell status={entry.healthStatus} checkedAt={entry.lastVerifiedAt} />
  ),
};
const isDamaged = (entry: RetentionPreviewEntry) =>
  entry.reasons.some((r) => r.kind === KeepReasonKind.DAMAGED);
/**
 * Protective reasons stand out from the rules' own: damage in red, a pin in amber, proof of
 * restorability in blue (its text says when the rules alone would delete the backup).
 */
function reasonTone(kind: KeepReasonKind, isProtected: boolean): BadgeTone {
  if (kind === KeepReasonKind.DAMAGED) return 'danger';
  if (isProtected) return 'warning';
  return kind === KeepReasonKind.PROVEN_RESTORABLE ? 'info' : 'success';
}
const reasonsColumn: Column<RetentionPreviewEntry> = {
  id: 'reasons',
  header: 'Kept because',
  cell: (entry) => (
    <div className="retention-reasons" data-testid="keep-reasons">
      {entry.reasons.map((reason, index) => {
        const damaged = reason.kind === KeepReasonKind.DAMAGED;
        return (
          <Badge key={index} tone={reasonTone(reason.kind, entry.protected)}>
            <Term term={keepReasonPhrase(reason)} />
            {damaged && reason.since && (
              <>
                {' '}
                (since <Time value={reason.since} compact />)
              </>
            )}
          </Badge>
        );
      })}
    </div>
  ),
};

/** What the rules would delete (names, dates, sizes) and what stays with its keep reasons. */
export function PreviewLists({ preview }: { preview: RetentionPreview }) {
  const deleted = preview.entries.filter((e) => e.action === RetentionAction.DELETE);
  const kept = preview.entries.filter((e) => e.action === RetentionAction.KEEP);
  const shownAll = preview.nextPageToken === '';
  const damaged = kept.filter(isDamaged).length;
  return (
    <>
      <p className="retention-summary" data-testid="retention-summary">
        <strong>
          {formatCount(preview.deleteCount)} to delete ({formatBytes(preview.bytesFreed)})
        </strong>
        <span>{formatCount(preview.keepCount)} kept</span>
      </p>
      {damaged > 0 && (
        <p className="muted" data-testid="retention-damaged-note">
          {counted(damaged, 'backup')} listed here {damaged === 1 ? 'was' : 'were'} found damaged by
          a health check: no rule counts {damaged === 1 ? 'it' : 'them'} (the newest healthy backups
          are kept in {damaged === 1 ? 'its' : 'their'} place) and retention never deletes{' '}
          {damaged === 1 ? 'it' : 'them'}; delete {damaged === 1 ? 'it' : 'them'} by hand once
          looked at.
        </p>
      )}
      <h3>Would be deleted</h3>
      <Table
        caption="Would be deleted"
        captionHidden
        columns={[nameColumn, createdColumn, sizeColumn, healthColumn]}
        rows={deleted}
        rowKey={(entry) => entry.backupId}
        empty={<EmptyState title="Nothing to delete">These rules keep every backup.</EmptyState>}
      />
      <h3>Kept, and why</h3>
      <Table
        caption="Kept, and why"
        captionHidden
        columns={[nameColumn, createdColumn, sizeColumn, healthColumn, reasonsColumn]}
        rows={kept}
        rowKey={(entry) => entry.backupId}
      />
      {!shownAll && (
        <p className="muted">
          The first {formatCount(preview.entries.length)} backups of the plan are listed; the totals
          above cover all of them.
        </p>
      )}
    </>
  );
}
