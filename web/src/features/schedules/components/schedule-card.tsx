import { StoreBackupApiOperation } from '@store/contract';
import { useState, type SubmitEvent } from 'react';
import { Badge } from '../../../components/ui/badge';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { IntervalField } from '../../../components/ui/interval-field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { useActiveTenant, useToast } from '../../../lib/services';
import {
  describeEffectiveInterval,
  formatInterval,
  INTERVAL_UNITS,
  parseInterval,
  splitInterval,
  type IntervalUnit,
} from '../../../lib/interval';
import {
  useCancelScheduleMutation,
  useScheduleBackupMutation,
  type ScheduleOutcome,
} from '../hooks/use-schedule-mutations';
import type { ScheduleScope } from '../hooks/use-scope-status-query';

export interface ScheduleCardProps {
  /** The scope (tree + key prefix) whose schedule this card registers and cancels. */
  scope: ScheduleScope;
  incremental: boolean;
  /** The registered interval in ms, or null when no schedule of this kind is registered. */
  registeredMs: number | null;
  capabilities: Capabilities<StoreBackupApiOperation>;
}

/** Register, change or cancel the full or the incremental schedule of one scope. */
export function ScheduleCard({
  scope,
  incremental,
  registeredMs,
  capabilities,
}: ScheduleCardProps) {
  const tenant = useActiveTenant();
  const toast = useToast();
  const initial = splitInterval(registeredMs ?? INTERVAL_UNITS.hours * (incremental ? 1 : 24));
  const [amount, setAmount] = useState(initial.amount);
  const [unit, setUnit] = useState<IntervalUnit>(initial.unit);
  const [checked, setChecked] = useState(false);
  const [outcome, setOutcome] = useState<ScheduleOutcome | null>(null);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const schedule = useScheduleBackupMutation();
  const cancel = useCancelScheduleMutation();

  const kind = incremental ? 'incremental' : 'full';
  const title = incremental ? 'Incremental backups' : 'Full backups';
  const headingId = `schedule-${kind}`;
  const parsed = parseInterval(amount, unit);
  const scopeName = describeScope(scope);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!parsed.ok) return;
    setOutcome(null);
    schedule.mutate(
      { scope, incremental, intervalMs: parsed.ms },
      {
        onSuccess: (registered) => {
          setOutcome(registered);
          const clamped = registered.effectiveMs !== registered.intervalMs;
          toast({
            tone: clamped ? 'info' : 'success',
            title: `${incremental ? 'Incremental' : 'Full'} schedule registered for ${scopeName}`,
            detail: describeEffectiveInterval(registered.intervalMs, registered.effectiveMs),
          });
        },
      },
    );
  };

  const confirmCancel = () =>
    cancel.mutate(
      { scope, incremental },
      {
        onSuccess: () => {
          setOutcome(null);
          toast({ tone: 'success', title: `${title} of ${scopeName} no longer scheduled` });
        },
        onSettled: () => setConfirmingCancel(false),
      },
    );

  const clamped = outcome !== null && outcome.effectiveMs !== outcome.intervalMs;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="panel__title">
        {title}{' '}
        {registeredMs === null ? (
          <Badge>Not scheduled</Badge>
        ) : (
          <Badge tone="success">Every {formatInterval(registeredMs)}</Badge>
        )}
      </h2>
      <form className="schedule-form" onSubmit={submit} noValidate aria-label={`${title} schedule`}>
        <IntervalField
          label={`${incremental ? 'Incremental' : 'Full'} backup interval`}
          hint="The server raises an interval below its scheduler minimum to that minimum."
          error={checked && !parsed.ok ? parsed.error : null}
          amount={amount}
          unit={unit}
          onAmountChange={setAmount}
          onUnitChange={setUnit}
        />
        <div className="schedule-form__actions">
          <GuardedButton
            type="submit"
            variant="primary"
            busy={schedule.isPending}
            {...capabilities.guard(StoreBackupApiOperation.SCHEDULE_BACKUP)}
          >
            {registeredMs === null ? 'Register schedule' : 'Change interval'}
          </GuardedButton>
          {registeredMs !== null && (
            <GuardedButton
              variant="danger"
              onClick={() => setConfirmingCancel(true)}
              {...capabilities.guard(StoreBackupApiOperation.CANCEL_SCHEDULE)}
            >
              Cancel schedule
            </GuardedButton>
          )}
        </div>
      </form>
      {outcome && (
        <p className={clamped ? 'notice notice--warning' : 'notice notice--info'} role="status">
          {describeEffectiveInterval(outcome.intervalMs, outcome.effectiveMs)}
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
    </section>
  );
}

/** "orders", or "orders under eu/" for a key prefix. */
export function describeScope(scope: ScheduleScope): string {
  return scope.keyPrefix === '' ? scope.treeId : `${scope.treeId} under ${scope.keyPrefix}`;
}
