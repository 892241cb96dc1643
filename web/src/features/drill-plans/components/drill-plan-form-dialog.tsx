import { DrillPlanBackupChoice, type RestoreDrillPlan } from '@store/contract';
import { useState, type SubmitEvent } from 'react';
import type { SchedulePageScope } from '../../../components/schedules/scope-section';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Field } from '../../../components/ui/field';
import { IntervalField } from '../../../components/ui/interval-field';
import { useToast } from '../../../lib/services';
import { useSaveDrillPlanMutation } from '../api/use-drill-plan-mutations';
import { draftOf, requestOf, type DrillPlanDraft } from '../utils/drill-plan-draft';

const TIME_ZONES = Intl.supportedValuesOf('timeZone');

const CHOICES: readonly [DrillPlanBackupChoice, string, string][] = [
  [DrillPlanBackupChoice.NEWEST, 'The newest backup', 'Proves the backup you would restore today.'],
  [
    DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW,
    'A random backup within a window',
    'Over time, proves older backups too.',
  ],
  [
    DrillPlanBackupChoice.EACH_NEW_FULL,
    'Each new full backup, once',
    'A run with no new full since the last drill is skipped.',
  ],
];

/**
 * Creates a plan of a scope, or edits one (its name then stays: a plan is found by its name).
 * The cadence controls are the schedules' own: an interval, optionally from a time of day in a
 * zone; no cadence means the plan runs only on demand.
 */
export function DrillPlanFormDialog({
  scope,
  plan,
  onClose,
}: {
  scope: SchedulePageScope;
  plan: RestoreDrillPlan | null;
  onClose: () => void;
}) {
  const toast = useToast();
  const save = useSaveDrillPlanMutation();
  const [draft, setDraft] = useState<DrillPlanDraft>(() => draftOf(plan ?? undefined));
  const [checked, setChecked] = useState(false);
  const check = requestOf(draft, scope);
  const errors = checked && !check.ok ? check.errors : {};
  const change = (patch: Partial<DrillPlanDraft>) => setDraft({ ...draft, ...patch });

  const submit = (event?: SubmitEvent) => {
    event?.preventDefault();
    setChecked(true);
    if (!check.ok) return;
    save.mutate(check.request, {
      onSuccess: (saved) => {
        toast({ tone: 'success', title: `Drill plan ${saved.name} saved` });
        onClose();
      },
    });
  };

  return (
    <Dialog
      open
      title={plan ? `Edit drill plan ${plan.name}` : 'New drill plan'}
      onClose={onClose}
      footer={
        <DialogActions
          dismiss={
            <Button onClick={onClose} disabled={save.isPending}>
              Cancel
            </Button>
          }
          primary={
            <Button variant="primary" busy={save.isPending} onClick={() => submit()}>
              Save plan
            </Button>
          }
        />
      }
    >
      <form className="stack" onSubmit={submit} noValidate aria-label="Drill plan">
        {!plan && (
          <Field label="Name" hint="Unique within this scope." error={errors.name}>
            {(control) => (
              <input
                {...control}
                className="input"
                value={draft.name}
                autoComplete="off"
                onChange={(event) => change({ name: event.target.value })}
              />
            )}
          </Field>
        )}
        <fieldset className="schedule-kind">
          <legend>When</legend>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.scheduled}
              onChange={(event) => change({ scheduled: event.target.checked })}
            />
            Run on a schedule (otherwise only on demand)
          </label>
          {draft.scheduled && (
            <div className="schedule-form">
              <IntervalField
                label="Every"
                hint="The server raises an interval below its scheduler minimum to that minimum."
                error={errors.interval}
                amount={draft.amount}
                unit={draft.unit}
                onAmountChange={(amount) => change({ amount })}
                onUnitChange={(unit) => change({ unit })}
              />
            </div>
          )}
          {draft.scheduled && (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.anchored}
                onChange={(event) => change({ anchored: event.target.checked })}
              />
              Start at a time of day
            </label>
          )}
          {draft.scheduled && draft.anchored && (
            <div className="schedule-extras__anchor">
              <Field
                label="Time of day"
                hint="Local time in the zone beside it."
                error={errors.timeOfDay}
              >
                {(control) => (
                  <input
                    {...control}
                    className="input"
                    type="time"
                    value={draft.timeOfDay}
                    onChange={(event) => change({ timeOfDay: event.target.value })}
                  />
                )}
              </Field>
              <Field
                label="Time zone"
                hint="An IANA zone; daylight saving time is followed."
                error={errors.timeZone}
              >
                {(control) => (
                  <>
                    <input
                      {...control}
                      className="input"
                      list="drill-plan-time-zones"
                      value={draft.timeZone}
                      autoComplete="off"
                      onChange={(event) => change({ timeZone: event.target.value })}
                    />
                    <datalist id="drill-plan-time-zones">
                      {TIME_ZONES.map((zone) => (
                        <option key={zone} value={zone} />
                      ))}
                    </datalist>
                  </>
                )}
              </Field>
            </div>
          )}
        </fieldset>
        <fieldset className="schedule-kind">
          <legend>Which backup</legend>
          {CHOICES.map(([choice, label, hint]) => (
            <label key={choice} className="bk-choice">
              <input
                type="radio"
                name="drill-plan-choice"
                checked={draft.choice === choice}
                onChange={() => change({ choice })}
              />
              <span>
                {label} <span className="muted">— {hint}</span>
              </span>
            </label>
          ))}
          {draft.choice === DrillPlanBackupChoice.RANDOM_WITHIN_WINDOW && (
            <div className="schedule-form">
              <IntervalField
                label="Window"
                hint="How far back the draw reaches."
                error={errors.window}
                amount={draft.windowAmount}
                unit={draft.windowUnit}
                onAmountChange={(windowAmount) => change({ windowAmount })}
                onUnitChange={(windowUnit) => change({ windowUnit })}
              />
            </div>
          )}
        </fieldset>
        <Field
          label="Entries a second at most"
          hint="Spares the live database; 0 for no limit."
          error={errors.rate}
        >
          {(control) => (
            <input
              {...control}
              className="input input--compact"
              inputMode="numeric"
              value={draft.maxEntriesPerSecond}
              onChange={(event) => change({ maxEntriesPerSecond: event.target.value })}
            />
          )}
        </Field>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.paused}
            onChange={(event) => change({ paused: event.target.checked })}
          />
          Paused (keeps the settings; runs only on demand)
        </label>
      </form>
    </Dialog>
  );
}
