import type { StoreOperationStatus } from '@store/contract';
import { isCancellation } from '../../lib/errors';
import { ownCancelBy } from '../../lib/operations/own-cancels';
import { ErrorText } from '../ui/error-text';

/** "Cancelled by alice" when this tab cancelled it, else "Cancelled": a decision, not an error. */
export function cancelledText(operation: Pick<StoreOperationStatus, 'operationId'>): string {
  const by = ownCancelBy(operation.operationId);
  return by ? `Cancelled by ${by}` : 'Cancelled';
}

/**
 * How an operation ended when it did not succeed: a cancel as a neutral note (someone decided
 * it), a failure in words with its code and raw message behind Details.
 */
export function OperationErrorNotice({
  operation,
  className = 'notice notice--warning',
}: {
  operation: StoreOperationStatus;
  className?: string;
}) {
  const error = operation.error;
  if (!error) return null;
  if (isCancellation(error)) {
    return (
      <p className="notice" data-testid="operation-cancelled">
        {cancelledText(operation)} before it finished.
      </p>
    );
  }
  return (
    <div className={className} role="alert">
      <ErrorText operationError={error} />
    </div>
  );
}
