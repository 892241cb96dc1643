import type { BackupManifest } from '@store/contract';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Dialog } from '../../../components/ui/dialog';
import { ErrorText } from '../../../components/ui/error-text';
import { Field } from '../../../components/ui/field';
import { GuardedButton } from '../../../components/ui/guarded-button';
import { Spinner } from '../../../components/ui/spinner';
import { Time } from '../../../components/ui/time';
import { SubjectName } from '../../../components/identity/subject-name';
import { useRoles } from '../../../lib/identity/use-roles';
import { useActiveTenant, useToast } from '../../../lib/services';
import {
  useBackupProtectionsQuery,
  useProtectBackupMutation,
  useUnprotectBackupMutation,
} from '../api/use-backup-protections';
import { LockBadge } from './lock-badge';

/** The server's limit on a protection's reason. */
const MAX_REASON = 500;

/**
 * Protection (a pin, like a legal hold): a protected backup and its chain are never deleted, by
 * retention or by Delete, until it is unprotected. Shows who protected it, when and why.
 */
export function ProtectionPanel({ manifest }: { manifest: BackupManifest }) {
  const protections = useBackupProtectionsQuery([manifest.backupId]);
  const protection = protections.data?.get(manifest.backupId);
  const roles = useRoles();
  const [editing, setEditing] = useState<'protect' | 'unprotect' | null>(null);

  return (
    <section className="panel" aria-labelledby="backup-protection">
      <h2 id="backup-protection" className="panel__title">
        Protection
      </h2>
      {protections.isPending ? (
        <Spinner label="Loading the protection…" />
      ) : protections.isError ? (
        <div role="alert">
          <ErrorText error={protections.error} lead="Could not load the protection:" />
        </div>
      ) : protection ? (
        <dl className="facts protection-facts" data-testid="protection-facts">
          <dt>Status</dt>
          <dd>
            <LockBadge protection={protection} /> This backup and its chain are not deleted until it
            is unprotected.
          </dd>
          <dt>By</dt>
          <dd>
            <SubjectName subject={protection.protectedBy} />
          </dd>
          <dt>Since</dt>
          <dd>
            <Time value={protection.protectedAt} />
          </dd>
          <dt>Why</dt>
          <dd>{protection.reason}</dd>
        </dl>
      ) : (
        <p className="muted">
          Not protected: retention and Delete may remove it. Protect it to keep it and its chain.
        </p>
      )}
      <div className="retention-actions">
        {protection ? (
          <GuardedButton
            allowed={roles.atLeast('admin')}
            reason={roles.needs('admin')}
            disabled={roles.isLoading}
            onClick={() => setEditing('unprotect')}
          >
            Unprotect
          </GuardedButton>
        ) : (
          <GuardedButton
            allowed={roles.atLeast('operator')}
            reason={roles.needs('operator')}
            disabled={roles.isLoading || protections.isPending}
            onClick={() => setEditing('protect')}
          >
            Protect
          </GuardedButton>
        )}
      </div>
      {editing && (
        <ReasonDialog
          mode={editing}
          backupId={manifest.backupId}
          name={manifest.name || manifest.backupId}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}

function ReasonDialog({
  mode,
  backupId,
  name,
  onClose,
}: {
  mode: 'protect' | 'unprotect';
  backupId: string;
  name: string;
  onClose: () => void;
}) {
  const tenant = useActiveTenant();
  const toast = useToast();
  const protect = useProtectBackupMutation();
  const unprotect = useUnprotectBackupMutation();
  const mutation = mode === 'protect' ? protect : unprotect;
  const [reason, setReason] = useState('');
  const trimmed = reason.trim();
  const tooLong = trimmed.length > MAX_REASON;
  const submit = () =>
    mutation.mutate(
      { backupId, reason: trimmed },
      {
        onSuccess: () => {
          toast({
            tone: 'success',
            title: mode === 'protect' ? `Protected ${name}` : `Unprotected ${name}`,
          });
          onClose();
        },
      },
    );
  return (
    <Dialog
      open
      title={mode === 'protect' ? 'Protect this backup?' : 'Lift the protection?'}
      onClose={onClose}
      footer={
        <DialogActions
          dismiss={
            <Button onClick={onClose} disabled={mutation.isPending}>
              Cancel
            </Button>
          }
          primary={
            <Button
              variant="primary"
              onClick={submit}
              busy={mutation.isPending}
              disabled={trimmed === '' || tooLong}
            >
              {mode === 'protect' ? 'Protect' : 'Unprotect'}
            </Button>
          }
        />
      }
    >
      <div className="dialog__message">
        <p>
          {mode === 'protect' ? (
            <>
              Backup <strong>{name}</strong> in tenant <strong>{tenant}</strong> and every backup
              its chain needs will be kept by retention and refused by Delete until unprotected.
            </>
          ) : (
            <>
              Backup <strong>{name}</strong> in tenant <strong>{tenant}</strong> may then be deleted
              by retention or Delete.
            </>
          )}
        </p>
        <Field
          label={mode === 'protect' ? 'Why (shown with the protection)' : 'Why (kept in the audit)'}
          error={tooLong ? `At most ${MAX_REASON} characters.` : null}
        >
          {(control) => (
            <textarea
              {...control}
              className="input"
              rows={3}
              autoFocus
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </Field>
        {mutation.isError && (
          <div role="alert">
            <ErrorText error={mutation.error} />
          </div>
        )}
      </div>
    </Dialog>
  );
}
