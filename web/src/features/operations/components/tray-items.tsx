import {
  BackupControlService,
  SchemaControlService,
  StoreOperationState,
  type StoreOperationStatus,
} from '@store/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import {
  useCancelledText,
  OperationErrorNotice,
} from '../../../components/operations/operation-error-notice';
import { OperationProgress } from '../../../components/operations/operation-progress';
import { OperationStateBadge } from '../../../components/operations/operation-state-badge';
import { RestoreReverted } from '../../../components/operations/restore-reverted';
import { useOperationTargetName } from '../../../components/operations/operation-target';
import {
  describeOperationError,
  explainOperationError,
  isCancellation,
  technicalText,
} from '../../../lib/errors';
import { isTerminalState, kindLabel } from '../../../lib/operations/operation-kinds';
import { operationOutcome } from '../../../lib/operations/operation-outcome';
import type { TrackedOperation } from '../../../lib/operations/tracked-operations-store';
import { paths } from '../../../lib/paths';
import { serviceKey } from '../../../lib/query-keys';
import { useServices } from '../../../lib/services';
import { resultBrief } from '../utils/result-brief';
import { useGetOperationQuery } from '../api/use-get-operation-query';
import { RunAgainButton } from './run-again-button';

export function ActiveTrayItem({ operation }: { operation: StoreOperationStatus }) {
  return (
    <li className="tray__item">
      <TrayHeading operation={operation} />
      <OperationProgress operation={operation} />
    </li>
  );
}

/**
 * Follows an operation until it is terminal, then records and announces its end once (a toast,
 * and the caches of what it changed). Mounted whether or not the tray is open, so a collapsed
 * tray still announces what finished.
 */
function useFollowedOperation(entry: TrackedOperation) {
  const { tracked, toasts } = useServices();
  const queryClient = useQueryClient();
  const query = useGetOperationQuery(entry.operationId, entry.family);
  const operation = query.data?.status;
  // Named as the "By" columns name people; a name not resolved yet reads as the subject's label.
  const cancelledLine = useCancelledText({
    operationId: entry.operationId,
    cancelledBy: operation?.cancelledBy,
  });

  useEffect(() => {
    if (!operation || !isTerminalState(operation.state)) return;
    if (!tracked.finish(entry.tenant, entry.operationId, operation.state)) return;
    const cancelled = isCancellation(operation.error);
    // What it changed (catalog, trees, reports) is stale now on every page.
    // An insight run changes what its spec service shows (verify stale backups: the catalog);
    // a retention apply deletes backups from the catalog.
    const service =
      entry.family === 'backup' || entry.family === 'backupInsight' || entry.family === 'lifecycle'
        ? BackupControlService
        : SchemaControlService;
    void queryClient.invalidateQueries({ queryKey: serviceKey(service) });
    // A run that succeeded but found problems ("1 corrupt") is a warning, never a green success.
    const outcome = operationOutcome(operation);
    toasts.push({
      tone:
        outcome.findings.length > 0
          ? 'warning'
          : operation.state === StoreOperationState.SUCCEEDED
            ? 'success'
            : operation.state === StoreOperationState.FAILED
              ? 'error'
              : 'info',
      title: cancelled
        ? `${kindLabel(operation.kind)}: ${cancelledLine.toLowerCase()}`
        : `${kindLabel(operation.kind)} ${outcome.label.toLowerCase()}`,
      detail:
        operation.error && !cancelled
          ? describeOperationError(operation.error)
          : (resultBrief(operation) ?? `Operation ${operation.operationId}`),
      technical:
        operation.error && !cancelled
          ? technicalText(explainOperationError(operation.error))
          : undefined,
      link: { to: paths.operation(operation.operationId), label: 'View details' },
    });
  }, [operation, entry, tracked, toasts, queryClient, cancelledLine]);
  return query;
}

/** The tray collapsed: nothing to show, but what it follows is still followed to its end. */
export function FollowedWatcher({ entry }: { entry: TrackedOperation }) {
  useFollowedOperation(entry);
  return null;
}

/**
 * An operation the tray follows that is not in the active list: just started (not listed yet)
 * or finished. Its status is fetched until terminal, then announced once and kept.
 */
export function FollowedTrayItem({ entry }: { entry: TrackedOperation }) {
  const query = useFollowedOperation(entry);
  const operation = query.data?.status;

  if (query.data === null) {
    // Gone (another tenant's id, or purged): nothing to show but a way to drop it.
    return (
      <li className="tray__item">
        <span className="muted">{entry.operationId} is no longer visible.</span>
        <DismissButton entry={entry} />
      </li>
    );
  }
  if (!operation) {
    return (
      <li className="tray__item muted">
        {kindLabel(entry.kind)} <span className="mono">{entry.operationId}</span>…
      </li>
    );
  }
  return (
    <li className="tray__item">
      <TrayHeading operation={operation} />
      {isTerminalState(operation.state) ? (
        <>
          <OperationErrorNotice operation={operation} className="tray__error" />
          <RunAgainButton operation={operation} />
          <TrayResult operation={operation} />
          <DismissButton entry={entry} />
        </>
      ) : (
        <OperationProgress operation={operation} />
      )}
    </li>
  );
}

function TrayHeading({ operation }: { operation: StoreOperationStatus }) {
  const target = useOperationTargetName(operation);
  return (
    <div className="tray__heading">
      <Link to={paths.operation(operation.operationId)}>{kindLabel(operation.kind)}</Link>
      {target && <span className="muted"> {target}</span>}{' '}
      <OperationStateBadge
        state={operation.state}
        cancelRequested={operation.cancelRequested}
        operation={operation}
      />
    </div>
  );
}

/** A finished operation's result in one line ("Deleted 3 backups, 1.0 MiB freed; 5 kept"). */
function TrayResult({ operation }: { operation: StoreOperationStatus }) {
  const brief = resultBrief(operation);
  return (
    <>
      {brief && <p className="tray__result">{brief}</p>}
      <RestoreReverted operation={operation} className="tray__result muted" />
    </>
  );
}

function DismissButton({ entry }: { entry: TrackedOperation }) {
  const { tracked } = useServices();
  return (
    <button
      type="button"
      className="link-button"
      aria-label={`Dismiss ${kindLabel(entry.kind)} ${entry.operationId}`}
      onClick={() => tracked.dismiss(entry.tenant, entry.operationId)}
    >
      Dismiss
    </button>
  );
}
