import { StoreBackupApiOperation, type ScheduleOverview } from '@store/contract';
import { useState, type SubmitEvent } from 'react';
import { Field } from '../../../components/ui/field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import type { Capabilities } from '../../../lib/capabilities/capabilities';
import { INTERVAL_UNITS, parseInterval, splitInterval } from '../../../lib/interval';
import { useToast } from '../../../lib/services';
import { describeCadenceIn } from '../utils/schedule-zone';
import {
  useSaveScheduleMutation,
  type CadenceChange,
  type ScheduleSaved,
} from '../api/use-save-schedule-mutation';
import type { ScheduleScope } from '../api/use-scope-status-query';
import { CadenceFieldset, describeScope, type CadenceDraft } from './cadence-fieldset';

/** The server's default, shown as the field's placeholder (name-template.ts on the server). */
const DEFAULT_TEMPLATE = '{scope} {kind} {YYYY}-{MM}-{DD} {HH}:{mm} {zone}';
const TIME_ZONES = Intl.supportedValuesOf('timeZone');
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** The saved notice, which the toast announcing the save keeps uncovered. */
const SAVED_ID = 'schedule-saved';

export interface ScheduleFormProps {
  scope: ScheduleScope;
  /** Registered intervals in ms (null: not registered), from the scope status. */
  registered: { full: number | null; incremental: number | null };
  /** The scope's current settings; null when none were ever stored. */
  current: ScheduleOverview | null;
  /** The zone the saved summary names its times in. */
  zone: string;
  capabilities: Capabilities<StoreBackupApiOperation>;
}

function draftOf(registeredMs: number | null, incremental: boolean): CadenceDraft {
  const split = splitInterval(registeredMs ?? INTERVAL_UNITS.hours * (incremental ? 1 : 24));
  return { on: registeredMs !== null, ...split };
}

/**
 * A scope's whole schedule in one form: the full and the incremental cadence, the time of day
 * they start at, and how their backups are named. One Save stores all of it.
 */
export function ScheduleForm({
  scope,
  registered,
  current,
  zone,
  capabilities,
}: ScheduleFormProps) {
  const toast = useToast();
  const save = useSaveScheduleMutation();
  const [full, setFull] = useState(() => draftOf(registered.full, false));
  const [incremental, setIncremental] = useState(() => draftOf(registered.incremental, true));
  const [anchored, setAnchored] = useState(current?.anchor !== undefined);
  const [timeOfDay, setTimeOfDay] = useState(current?.anchor?.timeOfDay ?? '02:00');
  const [timeZone, setTimeZone] = useState(current?.anchor?.timeZone ?? BROWSER_ZONE);
  const [template, setTemplate] = useState(
    current && !current.defaultNameTemplate ? current.nameTemplate : '',
  );
  const [keepEmpty, setKeepEmpty] = useState(current?.captureUnchangedIncrementals ?? false);
  const [saved, setSaved] = useState<ScheduleSaved | null>(null);
  const [checked, setChecked] = useState(false);

  const fullOn = full.on || registered.full !== null;
  const incrementalOn = incremental.on || registered.incremental !== null;
  const fullParsed = parseInterval(full.amount, full.unit);
  const incrementalParsed = parseInterval(incremental.amount, incremental.unit);
  const timeError = anchored && !/^([01]\d|2[0-3]):[0-5]\d$/.test(timeOfDay);
  const zoneError = anchored && !TIME_ZONES.includes(timeZone) && timeZone !== 'UTC';
  const intervalError = (on: boolean, parsed: typeof fullParsed) =>
    checked && on && !parsed.ok ? parsed.error : null;

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setChecked(true);
    if (timeError || zoneError) return;
    if ((fullOn && !fullParsed.ok) || (incrementalOn && !incrementalParsed.ok)) return;
    // A cadence is sent when it is new or its interval changed; a new time of day moves the
    // registered ones by itself (the server re-plans them at the next slot).
    const cadences: CadenceChange[] = [];
    if (fullOn && fullParsed.ok && fullParsed.ms !== registered.full) {
      cadences.push({ incremental: false, intervalMs: fullParsed.ms });
    }
    if (incrementalOn && incrementalParsed.ok && incrementalParsed.ms !== registered.incremental) {
      cadences.push({ incremental: true, intervalMs: incrementalParsed.ms });
    }
    setSaved(null);
    save.mutate(
      {
        scope,
        anchor: anchored ? { timeOfDay, timeZone } : null,
        nameTemplate: template.trim(),
        captureUnchangedIncrementals: keepEmpty,
        cadences,
      },
      {
        onSuccess: (result) => {
          setSaved(result);
          const clamped = result.cadences.some((c) => c.effectiveMs !== c.intervalMs);
          toast({
            tone: clamped ? 'info' : 'success',
            title: `Schedule of ${describeScope(scope)} saved`,
            result: SAVED_ID,
          });
        },
      },
    );
  };

  const savedOf = (isIncremental: boolean) =>
    saved?.cadences.find((c) => c.incremental === isIncremental) ?? null;
  return (
    <section className="panel" aria-labelledby="schedule-form">
      <h2 id="schedule-form" className="panel__title">
        Schedule
      </h2>
      <form className="schedule-extras" onSubmit={submit} noValidate aria-label="Schedule">
        <CadenceFieldset
          scope={scope}
          incremental={false}
          registeredMs={registered.full}
          draft={full}
          onDraftChange={setFull}
          error={intervalError(fullOn, fullParsed)}
          saved={savedOf(false)}
          capabilities={capabilities}
        />
        <CadenceFieldset
          scope={scope}
          incremental
          registeredMs={registered.incremental}
          draft={incremental}
          onDraftChange={setIncremental}
          error={intervalError(incrementalOn, incrementalParsed)}
          saved={savedOf(true)}
          capabilities={capabilities}
        />
        <fieldset className="schedule-kind">
          <legend>Start time</legend>
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
        </fieldset>
        <fieldset className="schedule-kind">
          <legend>Names</legend>
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
        </fieldset>
        <div className="schedule-form__actions">
          <GuardedButton
            type="submit"
            variant="primary"
            busy={save.isPending}
            {...capabilities.guard(StoreBackupApiOperation.SCHEDULE_BACKUP)}
          >
            Save schedule
          </GuardedButton>
        </div>
      </form>
      {saved?.view && <SavedNotice view={saved.view} zone={zone} />}
    </section>
  );
}

/** What the server stored: both cadences with their time of day, in the zone shown. */
function SavedNotice({ view, zone }: { view: ScheduleOverview; zone: string }) {
  return (
    <p className="notice notice--info" role="status" id={SAVED_ID}>
      Saved. Full: {describeCadenceIn(view.full, view.anchor, zone)}; incremental:{' '}
      {describeCadenceIn(view.incremental, view.anchor, zone)}.
    </p>
  );
}
