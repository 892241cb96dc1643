import { Field } from '../../../components/ui/field';
import { IntervalField } from '../../../components/ui/interval-field';
import { COUNT_RULES, type ParsedDraft, type RulesDraft } from '../utils/rules-draft';

/** Every rule kind, the time zone of the periods and whether retention follows each schedule. */
export function RulesForm({
  draft,
  parsed,
  onChange,
  readOnly,
}: {
  draft: RulesDraft;
  parsed: ParsedDraft;
  onChange: (next: RulesDraft) => void;
  /** A viewer may still try rules out: the preview follows the form, only Save is guarded. */
  readOnly?: boolean;
}) {
  const errors = parsed.ok ? {} : parsed.errors;
  return (
    <div className="retention-rules">
      <div className="retention-rules__counts">
        {COUNT_RULES.map(({ key, label, hint }) => (
          <Field key={key} label={label} hint={hint} error={errors[key]}>
            {(control) => (
              <input
                {...control}
                className="input input--compact"
                inputMode="numeric"
                placeholder="off"
                readOnly={readOnly}
                value={draft.counts[key]}
                onChange={(event) =>
                  onChange({ ...draft, counts: { ...draft.counts, [key]: event.target.value } })
                }
              />
            )}
          </Field>
        ))}
      </div>
      <div className="retention-rules__row">
        <IntervalField
          label="Keep within"
          hint="Everything created within this long of the newest backup; empty: off."
          amount={draft.withinAmount}
          unit={draft.withinUnit}
          error={errors.within}
          onAmountChange={(withinAmount) => onChange({ ...draft, withinAmount })}
          onUnitChange={(withinUnit) => onChange({ ...draft, withinUnit })}
        />
        <Field label="Time zone" hint="IANA name of the zone the periods follow; empty: UTC.">
          {(control) => (
            <input
              {...control}
              className="input"
              placeholder="UTC"
              list="retention-time-zones"
              readOnly={readOnly}
              value={draft.timeZone}
              onChange={(event) => onChange({ ...draft, timeZone: event.target.value })}
            />
          )}
        </Field>
        <datalist id="retention-time-zones">
          {timeZones().map((zone) => (
            <option key={zone} value={zone} />
          ))}
        </datalist>
      </div>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={draft.applyAfterSchedule}
          disabled={readOnly}
          onChange={(event) => onChange({ ...draft, applyAfterSchedule: event.target.checked })}
        />{' '}
        Apply after each scheduled backup of this scope
      </label>
      <p className="muted bk-small" id="retention-auto-apply-hint">
        Off: rules delete only when you apply a preview. On: they delete by themselves after each
        scheduled backup; turning it on shows what they would delete now before it is saved.
      </p>
    </div>
  );
}

/** The zones this browser knows, for suggestions; the server checks what is typed. */
function timeZones(): string[] {
  const intl = Intl as { supportedValuesOf?: (key: string) => string[] };
  return intl.supportedValuesOf?.('timeZone') ?? ['UTC', 'Europe/Berlin', 'America/New_York'];
}
