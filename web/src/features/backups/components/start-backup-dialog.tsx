import { useState, type SubmitEvent } from 'react';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorBanner } from '../../../components/ui/error-banner';
import { Field } from '../../../components/ui/field';
import { useActiveTenant } from '../../../lib/services';
import {
  captureRequest,
  checkCapture,
  type CaptureDraft,
  type CaptureErrors,
  type CaptureKind,
} from '../api/capture-draft';
import { DEFAULT_STEP, MAX_STEP } from '../api/form-checks';
import { useStartCaptureMutation } from '../hooks/use-start-capture-mutation';
import { BaseBackupPicker } from './base-backup-picker';
import { SetTreesPicker } from './set-trees-picker';

export interface StartBackupDialogProps {
  open: boolean;
  /** The draft to start from (kind, tree, base preset by the page that opens it). */
  initial: CaptureDraft;
  trees: readonly string[];
  onClose: () => void;
}

const KIND_LABELS: Record<CaptureKind, string> = {
  full: 'Full',
  incremental: 'Incremental',
  set: 'Set of trees',
};

/** Start a full, incremental or set backup; checks the form before anything is sent. */
export function StartBackupDialog({ open, initial, trees, onClose }: StartBackupDialogProps) {
  return (
    <Dialog open={open} title="Start a backup" onClose={onClose}>
      {/* Mounted only while open, so each opening starts from `initial`. */}
      {open && <StartBackupForm initial={initial} trees={trees} onClose={onClose} />}
    </Dialog>
  );
}

function StartBackupForm({ initial, trees, onClose }: Omit<StartBackupDialogProps, 'open'>) {
  const tenant = useActiveTenant();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<CaptureErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const start = useStartCaptureMutation();

  const update = (next: Partial<CaptureDraft>) => {
    const merged = { ...draft, ...next };
    // A new tree or prefix invalidates the chosen base.
    if (next.treeId !== undefined || next.keyPrefix !== undefined) merged.baseBackupId = '';
    setDraft(merged);
    if (submitted) setErrors(checkCapture(merged));
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = checkCapture(draft);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    start.mutate(captureRequest(draft), { onSuccess: onClose });
  };

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Start a backup">
      <p className="muted">
        In tenant <strong>{tenant}</strong>. The backup runs in the background; its progress opens
        when it starts.
      </p>
      <fieldset className="bk-choice-row">
        <legend>Kind</legend>
        {(Object.keys(KIND_LABELS) as CaptureKind[]).map((kind) => (
          <label key={kind} className="bk-choice">
            <input
              type="radio"
              name="capture-kind"
              value={kind}
              checked={draft.kind === kind}
              onChange={() => update({ kind })}
            />
            <span>{KIND_LABELS[kind]}</span>
          </label>
        ))}
      </fieldset>
      <Field label="Name" error={errors.name}>
        {(control) => (
          <input
            {...control}
            className="input"
            aria-required="true"
            maxLength={200}
            value={draft.name}
            onChange={(e) => update({ name: e.target.value })}
          />
        )}
      </Field>
      {draft.kind === 'set' ? (
        <SetTreesPicker
          trees={trees}
          selected={draft.setTreeIds}
          crossTreeConsistent={draft.crossTreeConsistent}
          error={errors.setTreeIds}
          onChange={(setTreeIds) => update({ setTreeIds })}
          onConsistentChange={(crossTreeConsistent) => update({ crossTreeConsistent })}
        />
      ) : (
        <>
          <Field label="Tree" error={errors.treeId}>
            {(control) => (
              <select
                {...control}
                className="input"
                aria-required="true"
                value={draft.treeId}
                onChange={(e) => update({ treeId: e.target.value })}
              >
                <option value="">Choose a tree…</option>
                {trees.map((tree) => (
                  <option key={tree} value={tree}>
                    {tree}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Key prefix (optional)"
            hint="Back up only the entries whose key starts with it."
            error={errors.keyPrefix}
          >
            {(control) => (
              <input
                {...control}
                className="input mono"
                value={draft.keyPrefix}
                onChange={(e) => update({ keyPrefix: e.target.value })}
              />
            )}
          </Field>
          {draft.kind === 'incremental' && (
            <BaseBackupPicker
              treeId={draft.treeId}
              keyPrefix={draft.keyPrefix}
              value={draft.baseBackupId}
              error={errors.baseBackupId}
              onChange={(baseBackupId) => update({ baseBackupId })}
            />
          )}
        </>
      )}
      <Field
        label="Page size (optional)"
        hint={`Entries read per step: 1 to ${MAX_STEP.toLocaleString()}; blank uses ${DEFAULT_STEP.toLocaleString()}.`}
        error={errors.pageSize}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            inputMode="numeric"
            value={draft.pageSize}
            onChange={(e) => update({ pageSize: e.target.value })}
          />
        )}
      </Field>
      {start.error && <ErrorBanner title="The server refused the backup" error={start.error} />}
      <div className="bk-actions">
        <Button onClick={onClose} disabled={start.isPending}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" busy={start.isPending}>
          Start {KIND_LABELS[draft.kind].toLowerCase()} backup
        </Button>
      </div>
    </form>
  );
}
