import { useId, useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { useActiveTenant, useToast } from '../../../lib/services';
import { checkJsonText } from '../api/json-text';
import type { PutOutcome } from '../api/put-outcome';
import { DeadLetterOutcome } from './dead-letter-outcome';
import { usePutEntryMutation } from '../hooks/use-entry-mutations';

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
 * Put one entry: a key and a JSON value, checked as you type (the server checks again). A write
 * the schema policy refuses keeps the dialog open with the dead-letter outcome, to fix and retry.
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

  const json = checkJsonText(value);
  const keyError = key === '' ? 'Enter the entry’s key' : null;
  const valueError = json.ok ? null : json.message;

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setTouched(true);
    if (keyError || valueError) return;
    setOutcome(null);
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
        <>
          <Button onClick={onClose} disabled={put.isPending}>
            Close
          </Button>
          <Button type="submit" form={formId} variant="primary" busy={put.isPending}>
            Put entry
          </Button>
        </>
      }
    >
      <form id={formId} className="stack put-entry" onSubmit={submit} noValidate>
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
              onChange={(event) => setValue(event.target.value)}
            />
          )}
        </Field>
        {outcome?.kind === 'dead-lettered' && (
          <DeadLetterOutcome treeId={treeId} outcome={outcome} />
        )}
      </form>
    </Dialog>
  );
}
