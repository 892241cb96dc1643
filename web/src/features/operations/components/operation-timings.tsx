import type { StoreOperationStatus } from '@store/contract';
import { Time } from '../../../components/ui/time';
import { OperationDuration } from './operation-duration';

/** Created, started, finished and how long it ran. */
export function OperationTimings({ operation }: { operation: StoreOperationStatus }) {
  return (
    <dl className="facts">
      <dt>Created</dt>
      <dd>
        <Time value={operation.createdAt} />
      </dd>
      <dt>Started</dt>
      <dd>
        <Time value={operation.startedAt} fallback="Not started yet" />
      </dd>
      <dt>Finished</dt>
      <dd>
        <Time value={operation.finishedAt} fallback="Not finished yet" />
      </dd>
      <dt>Duration</dt>
      <dd>
        <OperationDuration operation={operation} />
      </dd>
      <dt>Last update</dt>
      <dd>
        <Time value={operation.updatedAt} />
      </dd>
    </dl>
  );
}
