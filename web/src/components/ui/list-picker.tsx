import { ErrorBanner } from './error-banner';
import { Field } from './field';

export interface ListPickerOption {
  value: string;
  label: string;
}

export interface ListPickerProps {
  label: string;
  /** What is listed, singular and plural, e.g. "backup" and "backups". */
  noun: { one: string; many: string };
  value: string;
  onChange: (value: string) => void;
  /** The listed choices; undefined while the list has not arrived. */
  options: readonly ListPickerOption[] | undefined;
  isPending: boolean;
  error: Error | null;
  onRetry: () => void;
}

/**
 * A select of a listed resource, with the list's loading, empty and failed states. A value that
 * is not listed (e.g. named in the URL) stays selected.
 */
export function ListPicker({
  label,
  noun,
  value,
  onChange,
  options,
  isPending,
  error,
  onRetry,
}: ListPickerProps) {
  const listed = options ?? [];
  const missing = value !== '' && !listed.some((option) => option.value === value);
  return (
    <div className="filters">
      <Field
        label={label}
        hint={
          isPending
            ? `Loading ${noun.many}…`
            : listed.length === 0
              ? `No ${noun.many} yet.`
              : undefined
        }
      >
        {(control) => (
          <select
            {...control}
            className="input"
            value={value}
            onChange={(event) => onChange(event.target.value)}
          >
            <option value="">{`Choose a ${noun.one}…`}</option>
            {missing && <option value={value}>{value}</option>}
            {listed.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      {error && (
        <ErrorBanner title={`Could not list ${noun.many}`} error={error} onRetry={onRetry} />
      )}
    </div>
  );
}
