import type { TreeEntry } from '@store/contract';
import { Button } from '../../../components/ui/button';
import { Table, type Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatCount } from '../../../lib/format';

/** How much of a value the table shows; the whole value opens in its own view. */
const PREVIEW_CHARS = 80;

function preview(valueJson: string): string {
  return valueJson.length > PREVIEW_CHARS ? `${valueJson.slice(0, PREVIEW_CHARS)}…` : valueJson;
}

export interface EntriesTableProps {
  entries: readonly TreeEntry[];
  /** Whether the caller may write; when not, reasonId names the element that says why. */
  write: { allowed: boolean; reason: string; reasonId: string };
  onView: (key: string) => void;
  onEdit: (entry: TreeEntry) => void;
  onDelete: (key: string) => void;
}

/** One page of entries; each row's key opens its value; edit and delete need the write role. */
export function EntriesTable({ entries, write, onView, onEdit, onDelete }: EntriesTableProps) {
  const columns: Column<TreeEntry>[] = [
    {
      id: 'key',
      header: 'Key',
      cell: (entry) => (
        <button
          type="button"
          className="link-button mono"
          aria-label={`View ${entry.key}`}
          onClick={() => onView(entry.key)}
        >
          {entry.key}
        </button>
      ),
    },
    {
      id: 'value',
      header: 'Value',
      cell: (entry) => <code className="entry-preview">{preview(entry.valueJson)}</code>,
    },
    { id: 'sequence', header: 'Sequence', numeric: true, cell: (e) => formatCount(e.sequence) },
    { id: 'schema', header: 'Schema version', numeric: true, cell: (e) => e.schemaVersion },
    { id: 'updated', header: 'Updated', cell: (entry) => <Time value={entry.updatedAt} /> },
    {
      id: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      // Disabled rows point at the one reason shown above the table rather than repeat it.
      cell: (entry) => (
        <div className="entry-actions">
          <Button
            disabled={!write.allowed}
            title={write.allowed ? undefined : write.reason}
            aria-describedby={write.allowed ? undefined : write.reasonId}
            aria-label={`Edit ${entry.key}`}
            onClick={() => onEdit(entry)}
          >
            Edit
          </Button>
          <Button
            variant="danger-quiet"
            disabled={!write.allowed}
            title={write.allowed ? undefined : write.reason}
            aria-describedby={write.allowed ? undefined : write.reasonId}
            aria-label={`Delete ${entry.key}`}
            onClick={() => onDelete(entry.key)}
          >
            Delete
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Table
      caption="Entries, in key order"
      captionHidden
      columns={columns}
      rows={entries}
      rowKey={(entry) => entry.key}
    />
  );
}
