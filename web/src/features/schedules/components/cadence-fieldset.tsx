import { StoreBackupApiOperation } from '@store/contract';
import { useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { IntervalField } from '../../../components/ui/interval-field';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import {
  describeEffectiveInterval,
  formatInterval,
  type IntervalUnit,
} from '../../../lib/interval';
import { useActiveTenant, useToast } from '../../../lib/services';
import { useCancelScheduleMutation } from '../api/use-schedule-mutations';
import type { ScheduleScope } from '../api/use-scope-status-query';

/** One cadence's part of the schedule form: what the form holds for it. */
export interface CadenceDraft {
  /** Checked: register (or keep) this cadence. A registered one is always on until cancelled. */
  on: boolean;
  amount: string;
  unit: IntervalUnit;
}

export interface CadenceFieldsetProps {
  scope: ScheduleScope;
  incremental: boolean;
  /** The registered interval in ms, or null when no schedule of this kind is registered. */
  registeredMs: number | null;
  draft: CadenceDraft;
  onDraftChange: (draft: CadenceDraft) => void;
  error: string | null;
  /** What the last save registered: requested and effective (maybe clamped) interval. */
  saved: { intervalMs: number; effectiveMs: number } | null;
  capabilities: Capabilities<StoreBackupApiOperation>;
}

/** The full or the incremental cadence of a scope, inside the one schedule form. */
export function CadenceFieldset({
  scope,
  incremental,
  registeredMs,
  draft,
  onDraftChange,
  error,
  saved,
  capabilities,
}: CadenceFieldsetProps) {
  const tenant = useActiveTenant();
  const toast = useToast();
  const cancel = useCancelScheduleMutation();
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const kind = incremental ? 'incremental' : 'full';
  const title = incremental ? 'Incremental backups' : 'Full backups';
  const Kind = incremental ? 'Incremental' : 'Full';

  const confirmCancel = () =>
    cancel.mutate(
      { scope, incremental },
      {
        onSuccess: () => {
          onDraftChange({ ...draft, on: false });
          toast({
            tone: 'success',
            title: `${title} of ${describeScope(scope)} no longer scheduled`,
          });
        },
        onSettled: () => setConfirmingCancel(false),
      },
    );

  const clamped = saved !== null && saved.effectiveMs !== saved.intervalMs;
  return (
    <fieldset className="schedule-kind" aria-labelledby={`schedule-${kind}`}>
      <legend id={`schedule-${kind}`}>
        {title}{' '}
        {registeredMs === null ? (
          <Badge>Not scheduled</Badge>
        ) : (
          <Badge tone="success">Every {formatInterval(registeredMs)}</Badge>
        )}
      </legend>
      {registeredMs === null && (
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.on}
            onChange={(event) => onDraftChange({ ...draft, on: event.target.checked })}
          />
          Schedule {kind} backups
        </label>
      )}
      {(draft.on || registeredMs !== null) && (
        <div className="schedule-form">
          <IntervalField
            label={`${Kind} backup interval`}
            hint="The server raises an interval below its scheduler minimum to that minimum."
            error={error}
            amount={draft.amount}
            unit={draft.unit}
            onAmountChange={(amount) => onDraftChange({ ...draft, amount })}
            onUnitChange={(unit) => onDraftChange({ ...draft, unit })}
          />
          {registeredMs !== null && (
            <div className="schedule-form__actions">
              <GuardedButton
                variant="danger"
                onClick={() => setConfirmingCancel(true)}
                {...capabilities.guard(StoreBackupApiOperation.CANCEL_SCHEDULE)}
              >
                Cancel {kind} schedule
              </GuardedButton>
            </div>
          )}
        </div>
      )}
      {saved && (
        <p className={clamped ? 'notice notice--warning' : 'notice notice--info'} role="status">
          {describeEffectiveInterval(saved.intervalMs, saved.effectiveMs)}
        </p>
      )}
      <ConfirmDialog
        open={confirmingCancel}
        title={`Cancel the ${kind} schedule?`}
        confirmLabel="Cancel schedule"
        cancelLabel="Keep schedule"
        tone="danger"
        busy={cancel.isPending}
        onCancel={() => setConfirmingCancel(false)}
        onConfirm={confirmCancel}
      >
        <p>
          Stop the recurring {kind} backups of tree <strong>{scope.treeId}</strong>
          {scope.keyPrefix !== '' && (
            <>
              {' '}
              under key prefix <strong>{scope.keyPrefix}</strong>
            </>
          )}{' '}
          in tenant <strong>{tenant}</strong>?
        </p>
        <p className="muted">
          Existing backups stay, and so do other prefixes&apos; schedules. Register the schedule
          again to resume.
        </p>
      </ConfirmDialog>
    </fieldset>
  );
}

/** "orders", or "orders under eu/" for a key prefix. */
export function describeScope(scope: ScheduleScope): string {
  return scope.keyPrefix === '' ? scope.treeId : `${scope.treeId} under ${scope.keyPrefix}`;
}
