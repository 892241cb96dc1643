import type { ReactNode } from 'react';
import { Field } from '../ui/field';

export interface JsonTextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The check's message (line and column for a syntax error); shown under the editor. */
  error?: string | null | undefined;
  hint?: ReactNode;
  rows?: number;
}

/** A monospace JSON editor: a labelled textarea whose check error is announced with it. */
export function JsonTextField({
  label,
  value,
  onChange,
  error,
  hint,
  rows = 8,
}: JsonTextFieldProps) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <textarea
          {...control}
          className="input code-editor"
          rows={rows}
          spellCheck={false}
          autoCapitalize="off"
          autoCorrect="off"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
