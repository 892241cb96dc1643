import { useEffect, useState } from 'react';
import { OperationRunSummary } from '../../../components/operations/operation-run-summary';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Field } from '../../../components/ui/field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { useRoles } from '../../../lib/identity/use-roles';
import { isActiveState } from '../../../lib/operations/operation-kinds';
import {
  useLatestStaleCheckQuery,
  useRefreshVerdicts,
  useStartStaleCheckMutation,
} from '../api/use-fleet-health';
import { StaleCheckSummary } from '../../../components/operations/stale-check-summary';

const DEFAULT_DAYS = 7;

/**
 * "Verify stale backups": one tracked operation that runs the health check of every backup never
 * verified or verified more than N days ago, with its progress and verdict counts.
 */
export function VerifyStalePanel() {
  const [days, setDays] = useState(String(DEFAULT_DAYS));
  const roles = useRoles();
  const latest = useLatestStaleCheckQuery();
  const start = useStartStaleCheckMutation();
  const refreshVerdicts = useRefreshVerdicts();
  const run = latest.data ?? null;
  const running = !!run && isActiveState(run.state);
  const finishedId = run && !running ? run.operationId : null;
  useEffect(() => {
    if (finishedId) refreshVerdicts();
  }, [finishedId, refreshVerdicts]);

  const parsed = Number(days);
  const valid = days.trim() !== '' && Number.isInteger(parsed) && parsed >= 0 && parsed <= 3650;
  const reason = !roles.atLeast('operator')
    ? 'Needs the operator role'
    : running
      ? 'A run is in progress'
      : !valid
        ? 'Enter a whole number of days, 0 to 3650'
        : '';

  return (
    <section className="panel" aria-labelledby="verify-stale-title" id="verify-stale">
      <h2 id="verify-stale-title" className="panel__title">
        Verify stale backups
      </h2>
      <p className="muted">
        Runs the health check of every backup never verified, or last verified longer ago than this,
        as one tracked operation.
      </p>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!reason) start.mutate(parsed);
        }}
      >
        <Field
          label="Not verified within (days)"
          hint="0: check every backup, however recently verified"
          error={valid ? null : 'Enter a whole number of days, 0 to 3650'}
        >
          {(control) => (
            <input
              {...control}
              className="input stale-days"
              inputMode="numeric"
              value={days}
              onChange={(event) => setDays(event.target.value)}
            />
          )}
        </Field>
        <div className="inline-form__actions">
          <GuardedButton
            type="submit"
            variant="primary"
            busy={start.isPending}
            allowed={reason === ''}
            reason={reason}
          >
            Verify stale backups
          </GuardedButton>
        </div>
      </form>
      {start.error && <ErrorBanner title="Could not start the checks" error={start.error} />}
      {latest.error && (
        <ErrorBanner
          title="Could not load the latest run"
          error={latest.error}
          onRetry={() => void latest.refetch()}
        />
      )}
      {run && (
        <>
          <h3>Latest run</h3>
          <OperationRunSummary operation={run}>
            {run.result.case === 'staleHealthCheck' && (
              <StaleCheckSummary result={run.result.value} />
            )}
          </OperationRunSummary>
        </>
      )}
    </section>
  );
}
