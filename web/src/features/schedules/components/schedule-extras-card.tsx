import { StoreBackupApiOperation, type ScheduleOverview } from '@store/contract';
import { useState, type SubmitEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { useToast } from '../../../lib/services';
import { describeCadence, msOf, relativeTime } from '../api/schedule-words';
import { useScheduleExtrasMutation } from '../hooks/use-schedule-extras-mutation';
import type { ScheduleScope } from '../hooks/use-scope-status-query';
import { describeScope } from './schedule-card';

/** The server's default, shown as the field's placeholder (name-template.ts on the server). */
const DEFAULT_TEMPLATE = '{scope} {kind} {YYYY}-{MM}-{DD} {HH}:{mm} {zone}';
const TIME_ZONES = Intl.supportedValuesOf('timeZone');
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export interface ScheduleExtrasCardProps {
  scope: ScheduleScope;
  /** The scope's current settings; null when none were ever stored. */
  current: ScheduleOverview | null;
  capabilities: Capabilities<StoreBackupApiOperation>;
}

/** The anchor (start time of day), backup name template and unchanged-incremental setting. */
export function ScheduleExtrasCard({ scope, current, capabilities }: ScheduleExtrasCardProps) {
  const toast = useToast();
  const save = useScheduleExtrasMutation();
  const [anchored, setAnchored] = useState(current?.anchor !== undefined);
  const [timeOfDay, setTimeOfDay] = useState(current?.anchor?.timeOfDay ?? '02:00');
  const [timeZone, setTimeZone] = useState(current?.anchor?.timeZone ?? BROWSER_ZONE);
  const [template, setTemplate] = useState(
    current && !current.defaultNameTemplate ? current.nameTemplate : '',
  );
  const [keepEmpty, setKeepEmpty] = useState(current?.captureUnchangedIncrementals ?? false);
  const [saved, setSaved] = useState<ScheduleOverview | null>(null);
  const [checked, setChecked] = useState(false);

  const timeError = anchored && !/^([01]\d|2[0-3]):[0-5]\d$/.test(timeOfDay);
  const zoneError = anchored && !TIME_ZONES.includes(timeZone) && timeZone !== 'UTC';

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setChecked(true);
    if (timeError || zoneError) return;
    setSaved(null);
    save.mutate(
      {
        scope,
        anchor: anchored ? { timeOfDay, timeZone } : null,
        nameTemplate: template.trim(),
        captureUnchangedIncrementals: keepEmpty,
      },
      {
        onSuccess: (view) => {
          setSaved(view);
          toast({ tone: 'success', title: `Schedule settings of ${describeScope(scope)} saved` });
        },
      },
    );
  };

  return (
    <section className="panel" aria-labelledby="schedule-extras">
      <h2 id="schedule-extras" className="panel__title">
        Start time and names
      </h2>
      <form className="schedule-extras" onSubmit={submit} noValidate aria-label="Schedule settings">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={anchored}
            onChange={(event) => setAnchored(event.target.checked)}
          />
          Start at a time of day
        </label>
        {anchored && (
          <div className="schedule-extras__anchor">
            <Field
              label="Time of day"
              hint="Local time in the zone beside it; runs fall on it, then every interval."
              error={checked && timeError ? 'Enter a time as HH:mm, for example 02:00.' : null}
            >
              {(control) => (
                <input
                  {...control}
                  className="input"
                  type="time"
                  value={timeOfDay}
                  onChange={(event) => setTimeOfDay(event.target.value)}
                />
              )}
            </Field>
            <Field
              label="Time zone"
              hint="An IANA zone; daylight saving time is followed."
              error={
                checked && zoneError ? `${timeZone} is not a time zone this browser knows.` : null
              }
            >
              {(control) => (
                <>
                  <input
                    {...control}
                    className="input"
                    list="schedule-time-zones"
                    value={timeZone}
                    autoComplete="off"
                    onChange={(event) => setTimeZone(event.target.value)}
                  />
                  <datalist id="schedule-time-zones">
                    {TIME_ZONES.map((zone) => (
                      <option key={zone} value={zone} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
          </div>
        )}
        <Field
          label="Backup name template"
          hint="Empty: the default. Placeholders: {tree} {prefix} {scope} {kind} {YYYY} {MM} {DD} {HH} {mm} {ss} {zone}."
        >
          {(control) => (
            <input
              {...control}
              className="input"
              value={template}
              placeholder={DEFAULT_TEMPLATE}
              onChange={(event) => setTemplate(event.target.value)}
            />
          )}
        </Field>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={keepEmpty}
            onChange={(event) => setKeepEmpty(event.target.checked)}
          />
          Write an empty incremental backup when nothing changed (otherwise the run is recorded as
          “no change”)
        </label>
        <div className="schedule-form__actions">
          <GuardedButton
            type="submit"
            variant="primary"
            busy={save.isPending}
            {...capabilities.guard(StoreBackupApiOperation.SCHEDULE_BACKUP)}
          >
            Save settings
          </GuardedButton>
        </div>
      </form>
      {saved && <SavedNotice view={saved} />}
    </section>
  );
}

/** What the server stored: the cadences with their anchor and the next run. */
function SavedNotice({ view }: { view: ScheduleOverview }) {
  const next = view.nextRuns[0];
  return (
    <p className="notice notice--info" role="status">
      Saved. Full: {describeCadence(view.full, view.anchor)}; incremental:{' '}
      {describeCadence(view.incremental, view.anchor)}.
      {next &&
        ` Next run ${relativeTime(msOf(next.runTime), Date.now())}, as “${next.backupName}”.`}
    </p>
  );
}
