import { Code, ConnectError } from '@connectrpc/connect';
import { StoreOperationState } from '@store/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { ErrorText } from '../../../components/ui/error-text';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { retentionApplyBrief } from '../../../components/operations/retention-apply-summary';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { formatBytes, formatCount, toDate } from '../../../lib/format';
import { useRoles } from '../../../lib/identity/use-roles';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import { operationStateWords } from '../../../lib/words';
import { applyLabel } from '../utils/rules-draft';
import {
  isFinished,
  useLifecycleOperationQuery,
  useRetentionPreviewQuery,
  useStartRetentionApplyMutation,
  type RetentionScope,
} from '../api/use-retention';

/**
 * Apply: deletes exactly what the saved rules' preview lists, after a confirm that names the
 * count and the bytes, as a tracked operation with progress. A catalog that changed since the
 * preview is refused by the server; the console then offers the new preview.
 */
export function ApplyRetention({
  scope,
  scopeLabel,
  blockedBy,
}: {
  scope: RetentionScope;
  scopeLabel: string;
  /** Why no apply is possible now (unsaved rules); null when the saved rules are shown. */
  blockedBy: string | null;
}) {
  const tenant = useActiveTenant();
  const roles = useRoles();
  const stored = useRetentionPreviewQuery(scope, undefined, { enabled: blockedBy === null });
  const start = useStartRetentionApplyMutation(scope);
  const [confirming, setConfirming] = useState(false);
  const [operationId, setOperationId] = useState<string | null>(null);
  const status = useLifecycleOperationQuery(operationId);
  const result = status.data?.result.case === 'retentionApply' ? status.data.result.value : null;
  const preview = stored.data;
  const stale = start.isError && ConnectError.from(start.error).code === Code.FailedPrecondition;
  const running = status.data ? !isFinished(status.data.state) : operationId !== null;
  const nothing = preview !== undefined && preview.deleteCount === 0n;

  const confirm = () => {
    if (!preview) return;
    start.mutate(preview.fingerprint, {
      onSuccess: (handle) => {
        setOperationId(handle.operationId);
        setConfirming(false);
      },
      onError: () => setConfirming(false),
    });
  };
  const previewAgain = async () => {
    start.reset();
    const fresh = await stored.refetch();
    if (fresh.data && fresh.data.deleteCount > 0n) setConfirming(true);
  };

  return (
    <div className="retention-actions" data-testid="retention-apply">
      <GuardedButton
        variant="danger"
        allowed={roles.atLeast('operator')}
        reason={roles.needs('operator')}
        disabled={blockedBy !== null || !preview || nothing || running || roles.isLoading}
        onClick={() => setConfirming(true)}
      >
        {preview && blockedBy === null && !nothing
          ? applyLabel(preview.deleteCount, formatBytes(preview.bytesFreed))
          : 'Apply'}
      </GuardedButton>
      {blockedBy !== null && <span className="muted">{blockedBy}.</span>}
      {blockedBy === null && nothing && <span className="muted">Nothing to delete.</span>}
      {stale ? (
        <div role="alert">
          <ErrorText error={start.error} lead="Nothing was deleted:" />{' '}
          <Button onClick={() => void previewAgain()}>Preview again</Button>
        </div>
      ) : (
        start.isError && (
          <div role="alert">
            <ErrorText error={start.error} lead="The apply did not start:" />
          </div>
        )
      )}
      {operationId !== null && status.data && (
        <div className="stack" data-testid="retention-progress">
          <ProgressBar
            label="Retention apply"
            done={status.data.progress?.done ?? 0n}
            total={status.data.progress?.total ?? 0n}
            unit="backups"
            startedAt={toDate(status.data.startedAt)}
            phase={
              status.data.state === StoreOperationState.SUCCEEDED
                ? 'complete'
                : running
                  ? 'running'
                  : 'stopped'
            }
          />
          <p>
            {operationStateWords(status.data.state).words}
            {result && ` · ${retentionApplyBrief(result)}`}
            {status.data.error && (
              <>
                {' '}
                <ErrorText operationError={status.data.error} />
              </>
            )}{' '}
            <Link to={paths.operation(operationId)} className="mono">
              operation {operationId}
            </Link>
          </p>
        </div>
      )}
      <ConfirmDialog
        open={confirming && preview !== undefined}
        title={`Apply retention to ${scopeLabel}?`}
        tone="danger"
        confirmLabel={
          preview ? applyLabel(preview.deleteCount, formatBytes(preview.bytesFreed)) : 'Delete'
        }
        busy={start.isPending}
        onConfirm={confirm}
        onCancel={() => setConfirming(false)}
      >
        {preview && (
          <>
            Deletes the {formatCount(preview.deleteCount)} backups of the preview in tenant{' '}
            <strong>{tenant}</strong>, freeing {formatBytes(preview.bytesFreed)};{' '}
            {formatCount(preview.keepCount)} stay. If the catalog of {scopeLabel} changed since the
            preview, nothing is deleted and a new preview is offered.
          </>
        )}
      </ConfirmDialog>
    </div>
  );
}
