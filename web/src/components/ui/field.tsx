import { useId, type ReactNode } from 'react';

/** Props to spread on the control so the label, hint and error are announced with it. */
export interface FieldControlProps {
  id: string;
  'aria-describedby'?: string;
  'aria-invalid'?: true;
}

export interface FieldProps {
  label: string;
  /**
   * Show the label as the heading of its section (level 2, with this class) instead of a second
   * line under one: a form of one field whose heading would say the same words again.
   */
  labelHeading?: string;
  hint?: ReactNode;
  error?: string | null | undefined;
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * A labelled form control: `<Field label="Token">{(p) => <input {...p} />}</Field>`. The label is
 * a real <label for>, and the hint and error are wired with aria-describedby.
 */
export function Field({ label, labelHeading, hint, error, children }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      {labelHeading === undefined ? (
        <label className="field__label" htmlFor={id}>
          {label}
        </label>
      ) : (
        <h2 className={labelHeading}>
          <label htmlFor={id}>{label}</label>
        </h2>
      )}
      {children({
        id,
        ...(describedBy && { 'aria-describedby': describedBy }),
        ...(error && { 'aria-invalid': true as const }),
      })}
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error">
          {error}
        </p>
      )}
    </div>
  );
}
