import { useState, type SubmitEvent } from 'react';
import { Badge } from '../../../components/ui/badge';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { IntervalField } from '../../../components/ui/interval-field';
import {
  formatInterval,
  INTERVAL_UNITS,
  parseInterval,
  splitInterval,
  type IntervalUnit,
} from '../../../lib/interval';
import { useToast } from '../../../lib/services';
import type { StoredHealth } from '../api/backup-health';
import { useConfigureMonitoringMutation } from '../api/use-health-mutations';

export interface MonitoringFormProps {
  backupId: string;
  monitoring: StoredHealth['monitoring'];
  guard: { allowed: boolean; reason: string };
}

/**
 * Periodic verification of one backup: on/off and its interval. What the server stored is read
 * back, so a clamped interval shows as the server keeps it.
 */
export function MonitoringForm({ backupId, monitoring, guard }: MonitoringFormProps) {
  const toast = useToast();
  const initial = splitInterval(
    monitoring && monitoring.intervalMs > 0 ? monitoring.intervalMs : INTERVAL_UNITS.days,
  );
  const [enabled, setEnabled] = useState(monitoring?.enabled ?? false);
  const [amount, setAmount] = useState(initial.amount);
  const [unit, setUnit] = useState<IntervalUnit>(initial.unit);
  const [checked, setChecked] = useState(false);
  const [requestedMs, setRequestedMs] = useState<number | null>(null);
  const configure = useConfigureMonitoringMutation();
  const parsed = parseInterval(amount, unit);
  // Disabling needs no interval; a valid one is still sent so it is kept for later.
  const invalid = enabled && !parsed.ok;

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setChecked(true);
    if (invalid) return;
    const intervalMs = parsed.ok ? parsed.ms : 0;
    configure.mutate(
      { backupId, enabled, intervalMs },
      {
        onSuccess: () => {
          setRequestedMs(enabled ? intervalMs : null);
          toast({
            tone: 'success',
            title: enabled ? 'Health monitoring on' : 'Health monitoring off',
            detail: `Backup ${backupId}`,
          });
        },
      },
    );
  };

  const stored = monitoring?.enabled ? monitoring.intervalMs : null;
  const clamped = requestedMs !== null && stored !== null && stored !== requestedMs;
  return (
    <section className="panel" aria-labelledby="health-monitoring">
      <h2 id="health-monitoring" className="panel__title">
        Monitoring{' '}
        {stored !== null ? (
          <Badge tone="success">Every {formatInterval(stored)}</Badge>
        ) : (
          <Badge>Off</Badge>
        )}
      </h2>
      <form className="inline-form" onSubmit={submit} noValidate aria-label="Health monitoring">
        <label className="checkbox-field">
          <input
            type="checkbox"
            checked={enabled}
            onChange={(event) => setEnabled(event.target.checked)}
          />
          Verify this backup periodically
        </label>
        <IntervalField
          label="Check interval"
          amount={amount}
          unit={unit}
          onAmountChange={setAmount}
          onUnitChange={setUnit}
          error={checked && invalid && !parsed.ok ? parsed.error : null}
        />
        <div className="inline-form__actions">
          <GuardedButton type="submit" variant="primary" busy={configure.isPending} {...guard}>
            Save monitoring
          </GuardedButton>
        </div>
      </form>
      {clamped && (
        <p className="notice notice--warning" role="status">
          Clamped to {formatInterval(stored)}: the requested {formatInterval(requestedMs)} is below
          the server&apos;s minimum interval.
        </p>
      )}
    </section>
  );
}
