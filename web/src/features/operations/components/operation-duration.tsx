import type { StoreOperationStatus } from '@store/contract';
import { formatDuration, toDate } from '../../../lib/format';

/** Started → finished, or started → now while it runs; "—" before it starts. */
export function operationDurationMs(
  operation: StoreOperationStatus,
  now = Date.now(),
): number | undefined {
  const started = toDate(operation.startedAt);
  if (!started) return undefined;
  const finished = toDate(operation.finishedAt);
  return (finished?.getTime() ?? now) - started.getTime();
}

export function OperationDuration({ operation }: { operation: StoreOperationStatus }) {
  const ms = operationDurationMs(operation);
  return ms === undefined ? <span className="muted">—</span> : <>{formatDuration(ms)}</>;
}
