import { StoreRestoreMode, type BackupManifest } from '@store/contract';
import { useState, type SubmitEvent } from 'react';
import { CopyableId } from '../../../components/ui/copyable-id';
import { Dialog } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { useActiveTenant } from '../../../lib/services';
import { needsHealthOverride } from '../utils/health-freshness';
import { TREE_NAME_MAX } from '../utils/form-checks';
import {
  checkRestore,
  EMPTY_RESTORE,
  restoreRequest,
  restoreTarget,
  type RestoreDraft,
  type RestoreErrors,
} from '../utils/restore-draft';
import type { RestorePreviewRecord } from '../utils/restore-guard';
import { useStartRestoreMutation } from '../api/use-start-restore-mutation';
import { FormFooter, KeyPrefixField, StepSizeField } from './backup-form-parts';
import { HealthOverride } from './health-override';
import { RestoreConfirmation } from './restore-confirmation';

export interface RestoreDialogProps {
  open: boolean;
  manifest: BackupManifest;
  /** Whether the caller may start a cold restore (StartColdRestore). */
  coldAllowed: boolean;
  onClose: () => void;
}

// The safe choice first and chosen: a restore opens on a new tree; replacing the live tree in
// place is a deliberate choice, and then a second step names the tenant and the tree.
const MODES: { mode: StoreRestoreMode; label: string; hint: string }[] = [
  {
    mode: StoreRestoreMode.NEW_TREE,
    label: 'Into a new tree',
    hint: 'Fills another tree, which must be empty; the live tree is not touched.',
  },
  {
    mode: StoreRestoreMode.SHADOW,
    label: 'Shadow',
    hint: 'Restores beside the tree without swapping, for inspection.',
  },
  {
    mode: StoreRestoreMode.IN_PLACE,
    label: 'In place',
    hint: 'Replaces the tree’s contents atomically; can be reverted afterwards.',
  },
];

/** The restore dialog: mode, target, batch size, scope and cold restore, then a confirmation. */
export function RestoreDialog({ open, manifest, coldAllowed, onClose }: RestoreDialogProps) {
  return (
    <Dialog open={open} title={`Restore ${manifest.name || manifest.backupId}`} onClose={onClose}>
      {open && <RestoreForm manifest={manifest} coldAllowed={coldAllowed} onClose={onClose} />}
    </Dialog>
  );
}

function RestoreForm({ manifest, coldAllowed, onClose }: Omit<RestoreDialogProps, 'open'>) {
  const tenant = useActiveTenant();
  const [draft, setDraft] = useState<RestoreDraft>(EMPTY_RESTORE);
  const [errors, setErrors] = useState<RestoreErrors>({});
  const [submitted, setSubmitted] = useState(false);
  // IN_PLACE replaces live data: a second step names the tenant and the tree.
  const [confirming, setConfirming] = useState(false);
  // The last restore preview, kept across Back / Continue: the same request need not preview again.
  const [preview, setPreview] = useState<RestorePreviewRecord | null>(null);
  const start = useStartRestoreMutation();
  const overrideNeeded = needsHealthOverride(manifest);
  const target = restoreTarget(manifest.treeId, draft);

  const update = (next: Partial<RestoreDraft>) => {
    const merged = { ...draft, ...next };
    setDraft(merged);
    if (submitted) setErrors(checkRestore(merged, overrideNeeded));
  };
  const send = () =>
    start.mutate(
      { request: restoreRequest(manifest.backupId, manifest.treeId, draft), cold: draft.cold },
      { onSuccess: onClose, onError: () => setConfirming(false) },
    );
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setSubmitted(true);
    const found = checkRestore(draft, overrideNeeded);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    if (draft.mode === StoreRestoreMode.IN_PLACE) setConfirming(true);
    else send();
  };

  if (confirming) {
    return (
      <RestoreConfirmation
        manifest={manifest}
        draft={draft}
        tenant={tenant}
        target={target}
        pending={start.isPending}
        preview={preview}
        onPreview={setPreview}
        onBack={() => setConfirming(false)}
        onRestore={send}
      />
    );
  }

  return (
    <form className="stack" onSubmit={submit} noValidate aria-label="Restore options">
      <p className="muted">
        Backup <strong>{manifest.name || manifest.backupId}</strong> of tree{' '}
        <strong>{manifest.treeId}</strong> in tenant <strong>{tenant}</strong>.{' '}
        <CopyableId id={manifest.backupId} label="backup id" />
      </p>
      <fieldset className="stack">
        <legend>Mode</legend>
        {MODES.map(({ mode, label, hint }) => (
          <label key={mode} className="bk-choice">
            <input
              type="radio"
              name="restore-mode"
              checked={draft.mode === mode}
              onChange={() => update({ mode })}
            />
            <span>
              {label} <span className="muted bk-small">— {hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {draft.mode === StoreRestoreMode.NEW_TREE && (
        <Field
          label="Target tree"
          hint={`An empty or new tree name, up to ${TREE_NAME_MAX} characters.`}
          error={errors.targetTreeId}
        >
          {(control) => (
            <input
              {...control}
              className="input"
              aria-required="true"
              value={draft.targetTreeId}
              onChange={(e) => update({ targetTreeId: e.target.value })}
            />
          )}
        </Field>
      )}
      <StepSizeField
        label="Apply batch size (optional)"
        unit="Entries written per batch"
        value={draft.applyBatchSize}
        error={errors.applyBatchSize}
        onChange={(applyBatchSize) => update({ applyBatchSize })}
      />
      <KeyPrefixField
        label="Key prefix scope (optional)"
        hint="Restore only the entries whose key starts with it."
        value={draft.keyPrefix}
        error={errors.keyPrefix}
        onChange={(keyPrefix) => update({ keyPrefix })}
      />
      <label className="bk-choice">
        <input
          type="checkbox"
          checked={draft.cold}
          disabled={!coldAllowed}
          onChange={(e) => update({ cold: e.target.checked })}
        />
        <span>
          Cold restore{' '}
          <span className="muted bk-small">
            — read the chain from the artifact store’s manifests, not the catalog
            {!coldAllowed && ` (your role in tenant ${tenant} does not allow this)`}
          </span>
        </span>
      </label>
      {overrideNeeded && (
        <HealthOverride
          manifest={manifest}
          action="restore"
          checked={draft.healthOverride}
          onChange={(healthOverride) => update({ healthOverride })}
          error={errors.healthOverride}
        />
      )}
      <FormFooter
        error={start.error}
        errorTitle="The server refused the restore"
        pending={start.isPending}
        submitLabel={draft.mode === StoreRestoreMode.IN_PLACE ? 'Continue' : 'Start restore'}
        onCancel={onClose}
      />
    </form>
  );
}
