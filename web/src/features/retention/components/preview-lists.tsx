import {
  RetentionAction,
  type RetentionPreview,
  type RetentionPreviewEntry,
} from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { EmptyState } from '../../../components/ui/empty-state';
import { Table, type Column } from '../../../components/ui/table';
import { Term } from '../../../components/ui/term';
import { Time } from '../../../components/ui/time';
import { formatBytes, formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { keepReasonPhrase } from '../../../lib/words';

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
const reasonsColumn: Column<RetentionPreviewEntry> = {
  id: 'reasons',
  header: 'Kept because',
  cell: (entry) => (
    <div className="retention-reasons" data-testid="keep-reasons">
      {entry.reasons.map((reason, index) => (
        <Badge key={index} tone={entry.protected ? 'warning' : 'success'}>
          <Term term={keepReasonPhrase(reason)} />
        </Badge>
      ))}
    </div>
  ),
};

/** What the rules would delete (names, dates, sizes) and what stays with its keep reasons. */
export function PreviewLists({ preview }: { preview: RetentionPreview }) {
  const deleted = preview.entries.filter((e) => e.action === RetentionAction.DELETE);
  const kept = preview.entries.filter((e) => e.action === RetentionAction.KEEP);
  const shownAll = preview.nextPageToken === '';
  return (
    <>
      <p className="retention-summary" data-testid="retention-summary">
        <strong>
          {formatCount(preview.deleteCount)} to delete ({formatBytes(preview.bytesFreed)})
        </strong>
        <span>{formatCount(preview.keepCount)} kept</span>
      </p>
      <h3>Would be deleted</h3>
      <Table
        caption="Would be deleted"
        captionHidden
        columns={[nameColumn, createdColumn, sizeColumn]}
        rows={deleted}
        rowKey={(entry) => entry.backupId}
        empty={<EmptyState title="Nothing to delete">These rules keep every backup.</EmptyState>}
      />
      <h3>Kept, and why</h3>
      <Table
        caption="Kept, and why"
        captionHidden
        columns={[nameColumn, createdColumn, sizeColumn, reasonsColumn]}
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
