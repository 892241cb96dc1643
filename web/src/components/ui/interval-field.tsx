import { INTERVAL_UNITS, type IntervalUnit } from '../../lib/interval';
import { Field } from './field';

export interface IntervalFieldProps {
  label: string;
  amount: string;
  unit: IntervalUnit;
  onAmountChange: (amount: string) => void;
  onUnitChange: (unit: IntervalUnit) => void;
  hint?: string;
  error?: string | null;
}

/** A cadence typed as a whole number and a unit (lib/interval parses and checks it). */
export function IntervalField({
  label,
  amount,
  unit,
  onAmountChange,
  onUnitChange,
  hint,
  error,
}: IntervalFieldProps) {
  return (
    <>
      <Field label={label} hint={hint} error={error}>
        {(control) => (
          <input
            {...control}
            className="input input--compact"
            inputMode="numeric"
            value={amount}
            onChange={(event) => onAmountChange(event.target.value)}
          />
        )}
      </Field>
      <Field label="Unit">
        {(control) => (
          <select
            {...control}
            className="input"
            value={unit}
            onChange={(event) => onUnitChange(event.target.value as IntervalUnit)}
          >
            {Object.keys(INTERVAL_UNITS).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}
