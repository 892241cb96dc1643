import { useId, useState, type SubmitEvent } from 'react';
import { PolicyVerdict, policyInWords } from '../../../components/schema/policy-verdict';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import {
  useValidateValueNow,
  useValidateValueQuery,
  type ValueVerdict,
} from '../../../lib/schema/use-validate-value-query';
import { useActiveTenant, useToast } from '../../../lib/services';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { checkJsonText } from '../utils/json-text';
import type { PutOutcome } from '../api/put-outcome';
import { DeadLetterOutcome } from './dead-letter-outcome';
import { usePutEntryMutation } from '../api/use-entry-mutations';

/** Pause after the last keystroke before the value is checked against the policy. */
const POLICY_CHECK_DELAY_MS = 250;

export interface EntryDraft {
  key: string;
  valueJson: string;
}

export interface PutEntryDialogProps {
  treeId: string;
  /** The entry being edited (its key and formatted value), or an empty draft for a new one. */
  draft: EntryDraft;
  editing: boolean;
  onClose: () => void;
}

/**
 * Put one entry: a key and a JSON value, checked as you type, the JSON here and the tree's schema
 * policy by the server's own check (ValidateValue, the write guard's verdict). A value an ENFORCE
 * policy would refuse is not sent: the dialog says so and lists the errors, so a put never turns
 * into a dead letter by surprise. If the policy changes between the check and the write, the
 * refused write keeps the dialog open with the dead-letter outcome, to fix and retry.
 */
export function PutEntryDialog({ treeId, draft, editing, onClose }: PutEntryDialogProps) {
  const formId = useId();
  const tenant = useActiveTenant();
  const toast = useToast();
  const put = usePutEntryMutation(treeId);
  const [key, setKey] = useState(draft.key);
  const [value, setValue] = useState(draft.valueJson);
  const [touched, setTouched] = useState(false);
  const [outcome, setOutcome] = useState<PutOutcome | null>(null);
  // The verdict that stopped the last Put: the policy would refuse the value.
  const [refused, setRefused] = useState<ValueVerdict | null>(null);
  const [checking, setChecking] = useState(false);

  const json = checkJsonText(value);
  const keyError = key === '' ? 'Enter the entry’s key' : null;
  const valueError = json.ok ? null : json.message;
  // The raw text goes to the check, as to the write: parsing here would round large integers.
  const checked = useDebouncedValue(json.ok ? value : null, POLICY_CHECK_DELAY_MS);
  const validation = useValidateValueQuery(treeId, checked);
  const validateNow = useValidateValueNow(treeId);

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setTouched(true);
    if (keyError || valueError) return;
    setOutcome(null);
    setRefused(null);
    setChecking(true);
    // The check is advice: when it cannot answer, the write guard still judges the put.
    const verdict = await validateNow(value).catch(() => null);
    setChecking(false);
    if (verdict && !verdict.accepted) {
      setRefused(verdict);
      return;
    }
    put.mutate(
      { key, valueJson: value },
      {
        onSuccess: (result) => {
          if (result.kind === 'dead-lettered') {
            setOutcome(result);
            return;
          }
          toast({
            tone: 'success',
            title: `Entry ${result.key} written`,
            detail: `Tree ${treeId}, sequence ${result.sequence}`,
          });
          onClose();
        },
      },
    );
  };

  return (
    <Dialog
      open
      title={editing ? `Edit entry ${draft.key}` : 'Put an entry'}
      onClose={onClose}
      footer={
        <DialogActions
          dismiss={
            <Button onClick={onClose} disabled={put.isPending}>
              Close
            </Button>
          }
          primary={
            <Button type="submit" form={formId} variant="primary" busy={put.isPending || checking}>
              Put entry
            </Button>
          }
        />
      }
    >
      <form
        id={formId}
        className="stack put-entry"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <p className="muted">
          Writes to tree <strong>{treeId}</strong> in tenant <strong>{tenant}</strong>; an existing
          key is replaced.
        </p>
        <Field label="Key" error={touched ? keyError : null}>
          {(control) => (
            <input
              {...control}
              className="input mono"
              value={key}
              spellCheck={false}
              autoComplete="off"
              onChange={(event) => setKey(event.target.value)}
            />
          )}
        </Field>
        <Field
          label="Value (JSON)"
          hint={json.ok ? 'Valid JSON.' : undefined}
          error={touched || value !== draft.valueJson ? valueError : null}
        >
          {(control) => (
            <textarea
              {...control}
              className="input mono put-entry__value"
              rows={8}
              value={value}
              spellCheck={false}
              onChange={(event) => {
                setValue(event.target.value);
                setRefused(null);
              }}
            />
          )}
        </Field>
        <div aria-live="polite" data-testid="put-entry-policy">
          {json.ok && validation.data && checked !== null && (
            <PolicyVerdict data={validation.data} listTestId="put-entry-violations" />
          )}
        </div>
        {refused && (
          <p className="field__error" role="alert">
            Not sent: the {policyInWords(refused)} would refuse this value and set it aside as a
            dead letter. Fix the errors above, or change the policy first.
          </p>
        )}
        {outcome?.kind === 'dead-lettered' && (
          <DeadLetterOutcome treeId={treeId} outcome={outcome} />
        )}
      </form>
    </Dialog>
  );
}
