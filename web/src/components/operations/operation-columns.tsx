import type { StoreOperationStatus } from '@store/contract';
import { Link } from 'react-router';
import { kindLabel } from '../../lib/operations/operation-kinds';
import { paths } from '../../lib/paths';
import { CopyableId } from '../ui/copyable-id';
import type { Column } from '../ui/table';
import { Time } from '../ui/time';
import { OperationTarget } from './operation-target';

/** Table columns every operations table shows the same way. */

/**
 * The kind, linked to the operation's page, with its id below as secondary monospace text and a
 * copy button (outside the link: a button inside a link is not allowed). The link's name keeps
 * the id, so two links of one kind stay distinct for a screen reader.
 */
export const operationColumn: Column<StoreOperationStatus> = {
  id: 'operation',
  header: 'Operation',
  cell: (op) => (
    <>
      <Link
        to={paths.operation(op.operationId)}
        aria-label={`${kindLabel(op.kind)} ${op.operationId}`}
      >
        {kindLabel(op.kind)}
      </Link>
      <span className="table__sub">
        <CopyableId id={op.operationId} label="operation id" />
      </span>
    </>
  ),
};

export const targetColumn: Column<StoreOperationStatus> = {
  id: 'target',
  header: 'Target',
  cell: (op) => <OperationTarget operation={op} />,
};

export const createdColumn: Column<StoreOperationStatus> = {
  id: 'created',
  header: 'Created',
  // Compact: a day and minute fits a narrow column; the full time and UTC are its title.
  cell: (op) => <Time value={op.createdAt} compact />,
};
