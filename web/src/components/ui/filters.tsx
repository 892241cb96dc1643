import type { ReactNode } from 'react';
import { Button } from './button';

/** One control of a `form.filters` bar, labelled by wrapping it (pages.css: .filters__item). */
export function FilterField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="filters__item">
      <span>{label}</span>
      {children}
    </label>
  );
}

/** The bar's Apply (submits the form) and, while any filter is set, Clear filters. */
export function FilterActions({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <>
      <Button type="submit">Apply</Button>
      {filtered && (
        <Button variant="ghost" onClick={onClear}>
          Clear filters
        </Button>
      )}
    </>
  );
}

/** One choice of a FilterSelect. */
export interface FilterChoice {
  value: string;
  label: string;
}

/**
 * A filter's select: "Any …" first (`anyValue`, '' by default), then the choices. With
 * `keepUnlisted`, a value from the URL that is not among the choices (a tree gone, an action
 * of a newer server) is offered as itself rather than shown as "Any …".
 */
export function FilterSelect({
  label,
  value,
  anyLabel,
  anyValue = '',
  choices,
  keepUnlisted = false,
  onChange,
}: {
  label: string;
  value: string;
  anyLabel: string;
  anyValue?: string;
  choices: readonly FilterChoice[];
  keepUnlisted?: boolean;
  onChange: (value: string) => void;
}) {
  const unlisted =
    keepUnlisted && value !== anyValue && !choices.some((choice) => choice.value === value);
  return (
    <FilterField label={label}>
      <select className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value={anyValue}>{anyLabel}</option>
        {unlisted && <option value={value}>{value}</option>}
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </FilterField>
  );
}

/** A filter's text, applied when the bar is submitted (the caller keeps the draft). */
export function FilterSearch({
  label,
  value,
  placeholder,
  onChange,
}: {
  label: string;
  value: string;
  placeholder?: string;
  onChange: (value: string) => void;
}) {
  return (
    <FilterField label={label}>
      <input
        className="input"
        type="search"
        value={value}
        placeholder={placeholder}
        onChange={(event) => onChange(event.target.value)}
      />
    </FilterField>
  );
}

/** A filter's day, applied at once; `min` and `max` keep a range in order. */
export function FilterDate({
  label,
  value,
  min,
  max,
  onChange,
}: {
  label: string;
  value: string;
  min?: string;
  max?: string;
  onChange: (value: string) => void;
}) {
  return (
    <FilterField label={label}>
      <input
        className="input"
        type="date"
        value={value}
        min={min}
        max={max}
        onChange={(event) => onChange(event.target.value)}
      />
    </FilterField>
  );
}
