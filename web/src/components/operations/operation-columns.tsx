import type { StoreOperationStatus } from '@store/contract';
import { Link } from 'react-router';
import { kindLabel } from '../../lib/operations/operation-kinds';
import { paths } from '../../lib/paths';
import type { Column } from '../ui/table';
import { Time } from '../ui/time';
import { OperationTarget } from './operation-target';

/** Table columns every operations table shows the same way. */

/** The kind, linked to the operation's page, with its id below. */
export const operationColumn: Column<StoreOperationStatus> = {
  id: 'operation',
  header: 'Operation',
  cell: (op) => (
    <Link to={paths.operation(op.operationId)}>
      {kindLabel(op.kind)}
      <span className="mono muted table__sub">{op.operationId}</span>
    </Link>
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
  cell: (op) => <Time value={op.createdAt} />,
};
