import type { StoreOperationStatus, StoreRestoreResult } from '@store/contract';
import { useSubjectName } from '../../lib/identity/use-subject-name';
import { Time } from '../ui/time';

/** The restore result of an operation, when it is a restore that was reverted. */
export function revertedRestoreOf(
  operation: Pick<StoreOperationStatus, 'result'>,
): StoreRestoreResult | undefined {
  const result = operation.result;
  return result.case === 'restore' && result.value.revertedAt ? result.value : undefined;
}

/**
 * "Reverted by <who> at <time>" on a restore that was reverted (nothing otherwise): who by name
 * as "By" columns name people (ResolveSubjects), the recorded subject on hover; the time in the
 * reader's zone with UTC on hover, as every time shows. A revert recorded before the server kept
 * who asked says "Reverted at <time>".
 */
export function RestoreReverted({
  operation,
  className = 'muted',
}: {
  operation: Pick<StoreOperationStatus, 'result'>;
  className?: string;
}) {
  const restore = revertedRestoreOf(operation);
  const by = useSubjectName(restore?.revertedBy ?? '');
  if (!restore) return null;
  return (
    <span className={className} data-testid="restore-reverted">
      Reverted{' '}
      {restore.revertedBy && (
        <>
          by <span title={restore.revertedBy}>{by.name}</span>{' '}
        </>
      )}
      at <Time value={restore.revertedAt} />
    </span>
  );
}
