import { useState, type SubmitEvent } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../lib/paths';
import { useActiveTenant } from '../../../lib/services';
import {
  captureRequest,
  checkCapture,
  type CaptureDraft,
  type CaptureErrors,
  type CaptureKind,
} from '../utils/capture-draft';
import { useStartCaptureMutation } from '../api/use-start-capture-mutation';
import { BACKUP_NAME_MAX } from '../utils/form-checks';
import { BaseBackupPicker } from './base-backup-picker';
import { FormFooter, KeyPrefixField, StepSizeField, ThrottleField } from './backup-form-parts';
import { SetTreesPicker } from './set-trees-picker';

export interface StartBackupDialogProps {
  open: boolean;
  /** The draft to start from (kind, tree, base preset by the page that opens it). */
  initial: CaptureDraft;
  trees: readonly string[];
  /** False while the tenant's trees are still loading: no "no trees" notice before they arrive. */
  treesLoaded?: boolean;
  onClose: () => void;
}

const KIND_LABELS: Record<CaptureKind, string> = {
  full: 'Full',
  incremental: 'Incremental',
  set: 'Set of trees',
};

/** Start a full, incremental or set backup; checks the form before anything is sent. */
export function StartBackupDialog({
  open,
  initial,
  trees,
  treesLoaded = true,
  onClose,
}: StartBackupDialogProps) {
  const nothingToBackUp = treesLoaded && trees.length === 0;
  return (
    <Dialog open={open} title="Start a backup" onClose={onClose}>
      {/* Mounted only while open, so each opening starts from `initial`. */}
      {open && nothingToBackUp && <NoTreesNotice onClose={onClose} />}
      {open && !nothingToBackUp && (
        <StartBackupForm initial={initial} trees={trees} onClose={onClose} />
      )}
    </Dialog>
  );
}

/** A backup copies a tree's entries: with no tree yet, say so and point at where trees start. */
function NoTreesNotice({ onClose }: { onClose: () => void }) {
  const tenant = useActiveTenant();
  return (
    <div className="stack" data-testid="no-trees-to-back-up">
      <p>
        Tenant <strong>{tenant}</strong> has no tree to back up yet. A backup copies a tree&rsquo;s
        entries: import a JSON Lines file on the{' '}
        <Link to={paths.trees} onClick={onClose}>
          Trees page
        </Link>{' '}
        (or write entries through the data API), then start the backup here.
      </p>
      <DialogActions dismiss={<Button onClick={onClose}>Close</Button>} />
    </div>
  );
}

function StartBackupForm({
  initial,
  trees,
  onClose,
}: Omit<StartBackupDialogProps, 'open' | 'treesLoaded'>) {
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
      <Field label="Name" hint={`Up to ${BACKUP_NAME_MAX} characters.`} error={errors.name}>
        {(control) => (
          <input
            {...control}
            className="input"
            aria-required="true"
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
          <KeyPrefixField
            label="Key prefix (optional)"
            hint="Back up only the entries whose key starts with it."
            value={draft.keyPrefix}
            error={errors.keyPrefix}
            onChange={(keyPrefix) => update({ keyPrefix })}
          />
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
      <StepSizeField
        label="Page size (optional)"
        unit="Entries read per step"
        value={draft.pageSize}
        error={errors.pageSize}
        onChange={(pageSize) => update({ pageSize })}
      />
      <ThrottleField
        value={draft.maxEntriesPerSecond}
        error={errors.maxEntriesPerSecond}
        onChange={(maxEntriesPerSecond) => update({ maxEntriesPerSecond })}
      />
      <FormFooter
        error={start.error}
        errorTitle="The server refused the backup"
        pending={start.isPending}
        submitLabel={`Start ${KIND_LABELS[draft.kind].toLowerCase()} backup`}
        onCancel={onClose}
      />
    </form>
  );
}
