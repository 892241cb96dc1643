import { useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';

export interface KeyPrefixPickerProps {
  value: string;
  onChange: (keyPrefix: string) => void;
}

/**
 * The key prefix of the scope whose schedules the page shows. A scope is tree + key prefix: two
 * prefixes of one tree are two schedules, each with its own cadence and status.
 */
export function KeyPrefixPicker({ value, onChange }: KeyPrefixPickerProps) {
  const [draft, setDraft] = useState(value);
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    onChange(draft);
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="Scope key prefix">
      <Field label="Key prefix" hint="Empty: the whole tree. Each prefix has its own schedules.">
        {(control) => (
          <input
            {...control}
            className="input"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="e.g. eu/"
          />
        )}
      </Field>
      <div className="inline-form__actions">
        <Button type="submit">Show scope</Button>
      </div>
    </form>
  );
}
