import type { StoreOperationState } from '@store/contract';
import { isActiveState, isTerminalState } from './operations/operation-kinds';

/** Poll interval while something shown is queued or running (STYLE.md, Data fetching). */
export const FAST_POLL_MS = 1_000;
/** Poll interval when everything shown has finished: new work may still appear. */
export const SLOW_POLL_MS = 15_000;

interface HasState {
  state: StoreOperationState;
}

/**
 * refetchInterval of an operations list: FAST while any shown operation is QUEUED or RUNNING,
 * SLOW otherwise. It is one list request per service per tick whatever the number of rows: the
 * list query refetches as a whole, never row by row.
 */
export function listPollInterval(operations: readonly HasState[] | undefined): number {
  return operations?.some((operation) => isActiveState(operation.state))
    ? FAST_POLL_MS
    : SLOW_POLL_MS;
}

/**
 * refetchInterval of one operation: FAST until it is terminal, then false (a terminal state never
 * changes). Not found (null) stops as well; not loaded yet (undefined) is the first fetch.
 */
export function detailPollInterval(operation: HasState | null | undefined): number | false {
  if (operation === undefined) return FAST_POLL_MS;
  if (operation === null) return false;
  return isTerminalState(operation.state) ? false : FAST_POLL_MS;
}
