import type { TreeSummary } from '@store/contract';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge';
import { Table, type Column } from '../../../components/ui/table';
import { Time } from '../../../components/ui/time';
import { formatCount } from '../../../lib/format';
import { paths } from '../../../lib/paths';

const columns: readonly Column<TreeSummary>[] = [
  {
    id: 'tree',
    header: 'Tree',
    cell: (tree) => (
      <Link className="truncate" to={paths.tree(tree.treeId)} title={tree.treeId}>
        {tree.treeId}
      </Link>
    ),
  },
  { id: 'entries', header: 'Entries', numeric: true, cell: (tree) => formatCount(tree.entryCount) },
  {
    id: 'policy',
    header: 'Schema policy',
    cell: (tree) =>
      tree.hasPolicy ? <Badge tone="info">Policy set</Badge> : <span className="muted">None</span>,
  },
  {
    id: 'dead-letters',
    header: 'Dead letters',
    numeric: true,
    cell: (tree) =>
      tree.deadLetterCount > 0n ? (
        <Badge tone="danger">{formatCount(tree.deadLetterCount)}</Badge>
      ) : (
        <span className="muted">0</span>
      ),
  },
  { id: 'updated', header: 'Last write', cell: (tree) => <Time value={tree.updatedAt} /> },
];

/** The tenant's trees, one row each, linking to the tree's entries. */
export function TreesTable({ trees }: { trees: readonly TreeSummary[] }) {
  return (
    <Table
      caption="Trees of this tenant"
      captionHidden
      columns={columns}
      rows={trees}
      rowKey={(tree) => tree.treeId}
    />
  );
}
