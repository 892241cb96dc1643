import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Field } from '../../../components/ui/field';
import { DEFAULT_STEP, MAX_STEP } from '../utils/form-checks';

/** The form parts the start-backup and restore dialogs share. */

interface TextFieldProps {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}

/** An optional step size (entries per page or batch), checked against form-checks' bounds. */
export function StepSizeField({
  label,
  unit,
  ...input
}: TextFieldProps & { /** e.g. "Entries read per step". */ unit: string }) {
  return (
    <TextField
      label={label}
      hint={`${unit}: 1 to ${MAX_STEP.toLocaleString()}; blank uses ${DEFAULT_STEP.toLocaleString()}.`}
      inputMode="numeric"
      {...input}
    />
  );
}

/** An optional capture throttle, so a backup of a busy tree spares the live database. */
export function ThrottleField(input: Omit<TextFieldProps, 'label'>) {
  return (
    <TextField
      label="Throttle (optional)"
      hint="Entries read a second at most; blank reads as fast as the server can."
      inputMode="numeric"
      {...input}
    />
  );
}

/** An optional key prefix that narrows the operation to the keys starting with it. */
export function KeyPrefixField({ hint, ...input }: TextFieldProps & { hint: string }) {
  return <TextField hint={hint} className="mono" {...input} />;
}

function TextField({
  label,
  hint,
  value,
  error,
  onChange,
  className,
  inputMode,
}: TextFieldProps & { hint: string; className?: string; inputMode?: 'numeric' }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <input
          {...control}
          className={className ? `input ${className}` : 'input'}
          inputMode={inputMode}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export interface FormFooterProps {
  /** What the server answered when it refused the start, if it did. */
  error: Error | null;
  errorTitle: string;
  pending: boolean;
  submitLabel: string;
  onCancel: () => void;
}

/** The refusal banner, then Cancel and the submit button. */
export function FormFooter({ error, errorTitle, pending, submitLabel, onCancel }: FormFooterProps) {
  return (
    <>
      {error && <ErrorBanner title={errorTitle} error={error} />}
      <DialogActions
        dismiss={
          <Button onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
        }
        primary={
          <Button type="submit" variant="primary" busy={pending}>
            {submitLabel}
          </Button>
        }
      />
    </>
  );
}
