import { fromSchemaInsightStatus } from '../../../lib/operations/schema-insight-operations';
import { ErrorText } from '../../../components/ui/error-text';
import { DeadLetterReplayOutcome } from '@store/contract/gen/store/insight/v1/schema_insight_pb.js';
import { useState } from 'react';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { CopyableId } from '../../../components/ui/copyable-id';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { formatCount } from '../../../lib/format';
import { useRoles } from '../../../lib/identity/use-roles';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import { useCancelSchemaInsightMutation } from '../../../lib/schema/use-cancel-schema-insight-mutation';
import { useSchemaInsightOperationQuery } from '../../../lib/schema/use-schema-insight-operation-query';
import { useStartDeadLetterReplayMutation } from '../api/use-dead-letter-replay';
import { useRefreshWhenFinished } from '../hooks/use-invalidate-dead-letter-views';

/** Replays every pending letter (under the key prefix) as a tracked operation, with its result. */
export function BulkReplay({ treeId, keyPrefix }: { treeId: string; keyPrefix: string }) {
  const roles = useRoles();
  const start = useStartDeadLetterReplayMutation(treeId);
  const cancel = useCancelSchemaInsightMutation();
  const [confirm, setConfirm] = useState(false);
  const [operationId, setOperationId] = useState<string>();
  const status = useSchemaInsightOperationQuery(operationId).data;
  useRefreshWhenFinished(status);
  const report = status?.result.case === 'replay' ? status.result.value : undefined;
  const scope = keyPrefix ? `under "${keyPrefix}"` : 'of the tree';

  return (
    <div className="stack" aria-live="polite">
      <div className="schema-actions">
        <GuardedButton
          allowed={roles.atLeast('operator')}
          reason={roles.needs('operator')}
          busy={start.isPending}
          onClick={() => setConfirm(true)}
        >
          Replay all pending
        </GuardedButton>
        {status && isActiveState(status.state) && (
          <GuardedButton
            allowed={roles.atLeast('operator')}
            reason={roles.needs('operator')}
            onClick={() => cancel.mutate(status.operationId)}
          >
            Cancel replay
          </GuardedButton>
        )}
      </div>
      {status && (
        <p>
          Bulk replay <CopyableId id={status.operationId} label="bulk replay operation id" />{' '}
          <OperationStateBadge
            state={status.state}
            cancelRequested={status.cancelRequested}
            operation={fromSchemaInsightStatus(status)}
          />
        </p>
      )}
      {status && isActiveState(status.state) && (
        <ProgressBar
          label="Replay progress"
          done={status.progress?.done ?? 0n}
          total={status.progress?.total ?? 0n}
          unit="letters"
        />
      )}
      {status?.error && (
        <div className="field__error">
          <ErrorText operationError={status.error} />
        </div>
      )}
      {report && (
        <div data-testid="bulk-replay-result">
          <p>
            <strong>
              {formatCount(report.written)} written, {formatCount(report.refused)} refused again
            </strong>{' '}
            of {formatCount(report.considered)} pending letters
            {report.itemsTruncated ? ' (the lists show the first 500 of each)' : ''}.
          </p>
          <ul className="schema-errors">
            {report.items.map((item) => (
              <li key={String(item.deadLetterId)}>
                <span className="mono">{item.key}</span>:{' '}
                {item.outcome === DeadLetterReplayOutcome.WRITTEN
                  ? `written (sequence ${String(item.sequence)})`
                  : `refused: ${item.errors.join('; ')}`}
              </li>
            ))}
          </ul>
        </div>
      )}
      <ConfirmDialog
        open={confirm}
        title="Replay every pending dead letter?"
        confirmLabel="Replay all"
        busy={start.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={() =>
          start.mutate(
            { keyPrefix },
            {
              onSuccess: (handle) => setOperationId(handle.operationId),
              onSettled: () => setConfirm(false),
            },
          )
        }
      >
        <p>
          Every pending dead letter {scope} goes through the write guard again with its stored
          value. Accepted values are written; the rest stay with the new reasons.
        </p>
      </ConfirmDialog>
    </div>
  );
}
