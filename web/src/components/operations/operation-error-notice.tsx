import type { StoreOperationStatus } from '@store/contract';
import { isCancellation } from '../../lib/errors';
import { subjectLabel } from '../../lib/identity/subject-label';
import { useSubjectName } from '../../lib/identity/use-subject-name';
import { ownCancelBy } from '../../lib/operations/own-cancels';
import { ErrorText } from '../ui/error-text';

type Cancelled = Pick<StoreOperationStatus, 'operationId' | 'cancelledBy'>;

/**
 * "Cancelled by <who>": `name` when the caller resolved the canceller's name; else the
 * server's record of who cancelled it (its readable part), else this tab's own cancel (an older
 * server that does not record the canceller), else plain "Cancelled". A decision, not an error.
 */
export function cancelledText(operation: Cancelled, name?: string): string {
  if (name) return `Cancelled by ${name}`;
  if (operation.cancelledBy) return `Cancelled by ${subjectLabel(operation.cancelledBy).name}`;
  const own = ownCancelBy(operation.operationId);
  return own ? `Cancelled by ${own}` : 'Cancelled';
}

/** cancelledText with the canceller named as "By" columns name people (ResolveSubjects). */
export function useCancelledText(operation: Cancelled): string {
  const label = useSubjectName(operation.cancelledBy ?? '');
  return cancelledText(operation, operation.cancelledBy ? label.name : undefined);
}

function CancelledNotice({ operation }: { operation: StoreOperationStatus }) {
  const text = useCancelledText(operation);
  return (
    <p className="notice" data-testid="operation-cancelled" title={operation.cancelledBy}>
      {text} before it finished.
    </p>
  );
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
  if (isCancellation(error)) return <CancelledNotice operation={operation} />;
  return (
    <div className={className} role="alert">
      <ErrorText operationError={error} />
    </div>
  );
}
